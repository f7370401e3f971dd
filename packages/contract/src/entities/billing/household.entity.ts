import { MASKED_ID_SQL } from '../../billing/id-number';
import { defineEntity, f, label } from '../../entity-kit';
import { BILLING_PATH, BILLING_SCREENS, PRICE_CLASS_TARGET } from './billing-targets';
import { idNumberInput } from './id-number-input';

/**
 * A household (spec "card user"): the farmer who holds user cards and pays for well water. Its
 * ID number is taken on add and update and kept on the server: rows and exports answer only the
 * masked form (idNumberMasked); a cashier finds a household by the full number with an exact
 * search. One household per ID number in a tenant.
 */
export const householdEntity = defineEntity({
  name: 'CardUser',
  title: label('Card users', '用卡户', '用卡戶'),
  table: 'billing_household',
  path: `${BILLING_PATH}/cardUser`,
  route: BILLING_SCREENS.cardUser,
  menuCode: 'cardUser',
  scope: 'tenant',
  fields: {
    householdName: f.text({
      label: label('Household', '户主姓名', '戶主姓名'),
      required: true,
      max: 64,
      sortable: true,
    }),
    // The text field's check replaced by the ID number's own (shape, birth date, check digit).
    idNumber: {
      ...f.text({
        label: label('ID number', '身份证号', '身分證號'),
        required: true,
        min: 18,
        max: 18,
        unique: true,
        writeOnly: true,
        list: false,
        export: false,
        search: 'eq',
      }),
      input: idNumberInput(),
    },
    idNumberMasked: f.text({
      label: label('ID number', '身份证号', '身分證號'),
      computed: MASKED_ID_SQL('t.id_number'),
      readOnly: true,
      search: undefined,
      width: 180,
    }),
    phone: f.mobile({ label: label('Phone', '联系电话', '聯絡電話') }),
    village: f.text({
      label: label('Village', '村庄', '村莊'),
      required: true,
      max: 64,
      sortable: true,
    }),
    irrigatedArea: f.decimal({
      label: label('Irrigated area (mu)', '灌溉面积(亩)', '灌溉面積(畝)'),
      required: true,
      min: 0,
      max: 100_000,
      precision: 2,
    }),
    priceClassId: f.ref({
      label: label('Crop class', '作物类别', '作物類別'),
      required: true,
      target: PRICE_CLASS_TARGET,
    }),
    crops: f.tags({ label: label('Crops', '种植作物', '種植作物') }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});
