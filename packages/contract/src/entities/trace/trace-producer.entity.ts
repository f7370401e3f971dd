import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_CERT_LANGUAGES } from './trace-options';
import { TRACE_PATH, TRACE_SCREENS } from './trace-targets';

/**
 * A producer (a farm business, cooperative or grower): its producer code (unique per tenant,
 * printed on the compliance certificate), contact, the language its certificate is printed in
 * and its commitment (合格证's promise that the produce meets the rules). A tab of /base.
 */
export const traceProducerEntity = defineEntity({
  name: 'TraceProducer',
  title: label('Producers', '生产主体', '生產主體'),
  table: 'trace_producer',
  path: `${TRACE_PATH}/producer`,
  route: TRACE_SCREENS.base,
  menuCode: 'traceProducer',
  scope: 'tenant',
  fields: {
    producerName: f.text({
      label: label('Producer', '生产主体', '生產主體'),
      required: true,
      max: 64,
      sortable: true,
    }),
    producerCode: f.text({
      label: label('Producer code', '主体编码', '主體編碼'),
      required: true,
      max: 32,
      unique: true,
      sortable: true,
      pattern: { source: '^[A-Za-z0-9_.-]+$', key: 'validation.identifier' },
    }),
    contact: f.text({ label: label('Contact', '联系人', '聯絡人'), max: 64 }),
    phone: f.text({
      label: label('Phone', '联系电话', '聯絡電話'),
      max: 32,
      pattern: { source: '^[0-9+() -]*$', key: 'validation.invalid' },
    }),
    address: f.text({
      label: label('Address', '地址', '地址'),
      max: 255,
      list: false,
      search: undefined,
    }),
    certLanguage: f.enumOf({
      label: label('Certificate language', '合格证语言', '合格證語言'),
      required: true,
      options: TRACE_CERT_LANGUAGES,
      defaultValue: 'zh',
    }),
    commitment: f.textarea({
      label: label('Commitment', '承诺声明', '承諾聲明'),
      max: 1000,
    }),
    status: f.status(),
  },
});
