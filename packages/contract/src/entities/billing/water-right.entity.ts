import { defineEntity, f, label } from '../../entity-kit';
import { BILLING_PATH, BILLING_SCREENS, HOUSEHOLD_TARGET } from './billing-targets';

/**
 * The water a household used in a year, in m³: the database function billing_water_used_m3
 * (migration 020_billing_water_rights.sql) sums its consumption sessions of that year.
 */
const USED_SQL = 'billing_water_used_m3(t.tenant_id, t.household_id, t.year)';

/**
 * A household's water right for a year (spec /skgg/distribution): its quota in m³, by default the
 * irrigated area × its crop class's quota per mu (set when the row is made without one, and by
 * the "distribute year" call for every household lacking the year's row), editable per
 * household; used and remaining are computed from its sessions.
 */
export const waterRightEntity = defineEntity({
  name: 'WaterRight',
  title: label('Water rights', '水权分配', '水權分配'),
  table: 'billing_water_right',
  path: `${BILLING_PATH}/waterRight`,
  route: BILLING_SCREENS.distribution,
  menuCode: 'distribution',
  scope: 'tenant',
  uniqueTogether: [['householdId', 'year']],
  defaultSort: { field: 'year', order: 'descend' },
  fields: {
    householdId: f.ref({
      label: label('Household', '用卡户', '用卡戶'),
      required: true,
      target: HOUSEHOLD_TARGET,
      onDelete: 'cascade',
    }),
    village: f.text({
      label: label('Village', '村庄', '村莊'),
      computed: `(SELECT h.village FROM billing_household h WHERE h.id = t.household_id)`,
      readOnly: true,
    }),
    year: f.int({
      label: label('Year', '年度', '年度'),
      required: true,
      min: 2000,
      max: 2100,
      search: 'eq',
    }),
    quotaM3: f.decimal({
      label: label('Quota (m³)', '定额水量(m³)', '定額水量(m³)'),
      min: 0,
      max: 100_000_000,
      precision: 2,
    }),
    usedM3: f.decimal({
      label: label('Used (m³)', '已用水量(m³)', '已用水量(m³)'),
      min: 0,
      max: 100_000_000,
      precision: 2,
      computed: `round((${USED_SQL})::numeric, 2)::float8`,
      readOnly: true,
      sortable: false,
    }),
    remainingM3: f.decimal({
      label: label('Remaining (m³)', '剩余水量(m³)', '剩餘水量(m³)'),
      min: -100_000_000,
      max: 100_000_000,
      precision: 2,
      computed: `round((coalesce(t.quota_m3, 0) - (${USED_SQL}))::numeric, 2)::float8`,
      readOnly: true,
      sortable: false,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});
