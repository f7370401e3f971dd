import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_PATH, TRACE_PLANTING_TARGET, TRACE_SCREENS } from './trace-targets';

/** Recall of a batch: when and why. Set on the batch itself; what is made of it follows. */
export const recallFields = () => ({
  recalledAt: f.datetime({
    label: label('Recalled at', '召回时间', '召回時間'),
    list: false,
  }),
  recallReason: f.textarea({ label: label('Recall reason', '召回原因', '召回原因'), max: 500 }),
});

/**
 * A harvest batch of a planting: its batch number (generated), date, quantity in its unit (kg by
 * default) and grade. Refused before the pre-harvest interval of the plot's last spraying has
 * passed; what processing takes and what is packed straight from it never exceed its quantity
 * (taken, remaining: computed by the database, migration 025_traceability.sql).
 */
export const traceHarvestEntity = defineEntity({
  name: 'TraceHarvest',
  title: label('Harvests', '采收管理', '採收管理'),
  table: 'trace_harvest',
  path: `${TRACE_PATH}/harvest`,
  route: TRACE_SCREENS.harvest,
  menuCode: 'traceHarvest',
  scope: 'tenant',
  defaultSort: { field: 'harvestedAt', order: 'descend' },
  fields: {
    batchNo: f.text({
      label: label('Batch no.', '采收批次号', '採收批次號'),
      max: 32,
      unique: true,
      readOnly: true,
      sortable: true,
    }),
    plantingId: f.ref({
      label: label('Planting', '种植批次', '種植批次'),
      required: true,
      target: TRACE_PLANTING_TARGET,
    }),
    harvestedAt: f.datetime({
      label: label('Harvested at', '采收时间', '採收時間'),
      required: true,
    }),
    quantity: f.decimal({
      label: label('Quantity', '采收数量', '採收數量'),
      required: true,
      min: 0.001,
      max: 1_000_000_000,
      precision: 3,
    }),
    unit: f.text({
      label: label('Unit', '单位', '單位'),
      max: 16,
      defaultValue: 'kg',
      search: undefined,
    }),
    takenQuantity: f.decimal({
      label: label('Processed or packed', '已加工/包装', '已加工/包裝'),
      min: 0,
      max: 1_000_000_000,
      precision: 3,
      readOnly: true,
      sortable: false,
      computed: 'trace_harvest_taken(t.id)',
    }),
    grade: f.text({ label: label('Grade', '等级', '等級'), max: 32, search: undefined }),
    recalled: f.bool({
      label: label('Recalled', '已召回', '已召回'),
      readOnly: true,
      computed: 'trace_harvest_recalled(t.id)',
    }),
    ...recallFields(),
  },
});
