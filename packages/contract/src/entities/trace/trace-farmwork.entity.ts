import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_WORK_TYPES } from './trace-options';
import { TRACE_PATH, TRACE_PLANTING_TARGET, TRACE_SCREENS } from './trace-targets';

/**
 * Farm work on a planting: fertilizing, spraying, irrigation, weeding. A spraying names its
 * product and its pre-harvest interval (days, required): no harvest of the plot before the
 * interval of its last spraying has passed (server rule).
 */
export const traceFarmworkEntity = defineEntity({
  name: 'TraceFarmwork',
  title: label('Farm work', '农事管理', '農事管理'),
  table: 'trace_farmwork',
  path: `${TRACE_PATH}/farmwork`,
  route: TRACE_SCREENS.farmwork,
  menuCode: 'farmwork',
  scope: 'tenant',
  defaultSort: { field: 'doneAt', order: 'descend' },
  fields: {
    plantingId: f.ref({
      label: label('Planting', '种植批次', '種植批次'),
      required: true,
      target: TRACE_PLANTING_TARGET,
      onDelete: 'cascade',
    }),
    workType: f.enumOf({
      label: label('Work', '农事类型', '農事類型'),
      required: true,
      options: TRACE_WORK_TYPES,
    }),
    product: f.text({
      label: label('Product', '投入品', '投入品'),
      max: 128,
      sortable: true,
    }),
    dose: f.decimal({
      label: label('Dose', '用量', '用量'),
      min: 0,
      max: 1_000_000,
      precision: 3,
    }),
    doseUnit: f.text({
      label: label('Unit', '单位', '單位'),
      max: 16,
      search: undefined,
    }),
    operator: f.text({ label: label('Operator', '操作人', '操作人'), max: 64 }),
    doneAt: f.datetime({ label: label('Done at', '作业时间', '作業時間'), required: true }),
    phiDays: f.int({
      label: label('Pre-harvest interval (days)', '安全间隔期(天)', '安全間隔期(天)'),
      min: 0,
      max: 365,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});
