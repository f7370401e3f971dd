import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_GROWTH_STAGES, TRACE_PLANTING_STATES } from './trace-options';
import {
  TRACE_AREA_TARGET,
  TRACE_PATH,
  TRACE_PLANT_TARGET,
  TRACE_PLANTING_TARGET,
  TRACE_SCREENS,
} from './trace-targets';

/**
 * A planting: a variety on a plot from its sowing on. Its code is generated when none is given
 * (unique per tenant). A tab of /grow.
 */
export const tracePlantingEntity = defineEntity({
  name: 'TracePlanting',
  title: label('Plantings', '种植批次', '種植批次'),
  table: 'trace_planting',
  path: `${TRACE_PATH}/planting`,
  route: TRACE_SCREENS.grow,
  menuCode: 'tracePlanting',
  scope: 'tenant',
  defaultSort: { field: 'sownAt', order: 'descend' },
  fields: {
    plantingCode: f.text({
      label: label('Planting code', '种植编号', '種植編號'),
      max: 32,
      unique: true,
      sortable: true,
      pattern: { source: '^[A-Za-z0-9_.-]*$', key: 'validation.identifier' },
    }),
    areaId: f.ref({
      label: label('Plot', '地块', '地塊'),
      required: true,
      target: TRACE_AREA_TARGET,
    }),
    plantId: f.ref({
      label: label('Variety', '品种', '品種'),
      required: true,
      target: TRACE_PLANT_TARGET,
    }),
    sownAt: f.datetime({ label: label('Sown at', '播种时间', '播種時間'), required: true }),
    expectedHarvestAt: f.datetime({
      label: label('Expected harvest', '预计采收', '預計採收'),
    }),
    state: f.enumOf({
      label: label('State', '状态', '狀態'),
      required: true,
      options: TRACE_PLANTING_STATES,
      defaultValue: 'growing',
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});

/** A growth record of a planting: when, its stage, a note and photos. */
export const traceGrowthRecordEntity = defineEntity({
  name: 'TraceGrowthRecord',
  title: label('Growth records', '生长记录', '生長記錄'),
  table: 'trace_growth_record',
  path: `${TRACE_PATH}/growthRecord`,
  route: TRACE_SCREENS.grow,
  menuCode: 'traceGrow',
  scope: 'tenant',
  defaultSort: { field: 'recordedAt', order: 'descend' },
  fields: {
    plantingId: f.ref({
      label: label('Planting', '种植批次', '種植批次'),
      required: true,
      target: TRACE_PLANTING_TARGET,
      onDelete: 'cascade',
    }),
    recordedAt: f.datetime({
      label: label('Recorded at', '记录时间', '記錄時間'),
      required: true,
    }),
    stage: f.enumOf({
      label: label('Stage', '生长阶段', '生長階段'),
      required: true,
      options: TRACE_GROWTH_STAGES,
    }),
    note: f.textarea({ label: label('Note', '记录内容', '記錄內容'), max: 2000, list: true }),
    photos: f.json({ label: label('Photos', '照片', '照片') }),
  },
});
