import { defineEntity, f, label } from '../../entity-kit';
import { recallFields } from './trace-harvest.entity';
import { TRACE_PROCESS_TYPES } from './trace-options';
import {
  TRACE_HARVEST_TARGET,
  TRACE_PATH,
  TRACE_PROCESS_TARGET,
  TRACE_SCREENS,
} from './trace-targets';

/**
 * Processing (washing, sorting, drying, milling, ...): harvest batches in (TraceProcessInput),
 * one output out. Its output never exceeds Σ inputs × expected yield, and what is packed from it
 * never exceeds its output (server rules). Recalled if recalled itself or any input is.
 */
export const traceProcessEntity = defineEntity({
  name: 'TraceProcess',
  title: label('Processing', '加工管理', '加工管理'),
  table: 'trace_process',
  path: `${TRACE_PATH}/process`,
  route: TRACE_SCREENS.process,
  menuCode: 'traceProcess',
  scope: 'tenant',
  defaultSort: { field: 'startedAt', order: 'descend' },
  fields: {
    processNo: f.text({
      label: label('Process no.', '加工批次号', '加工批次號'),
      max: 32,
      unique: true,
      readOnly: true,
      sortable: true,
    }),
    processType: f.enumOf({
      label: label('Process', '加工方式', '加工方式'),
      required: true,
      options: TRACE_PROCESS_TYPES,
    }),
    startedAt: f.datetime({ label: label('Started at', '开始时间', '開始時間'), required: true }),
    endedAt: f.datetime({ label: label('Ended at', '结束时间', '結束時間') }),
    expectedYield: f.decimal({
      label: label('Expected yield (output ÷ input)', '预期得率(产出÷投入)', '預期得率(產出÷投入)'),
      required: true,
      min: 0.0001,
      max: 1,
      precision: 4,
    }),
    inputQuantity: f.decimal({
      label: label('Input', '投入数量', '投入數量'),
      min: 0,
      max: 1_000_000_000,
      precision: 3,
      readOnly: true,
      sortable: false,
      computed: 'trace_process_input_total(t.id)',
    }),
    outputQuantity: f.decimal({
      label: label('Output', '产出数量', '產出數量'),
      min: 0,
      max: 1_000_000_000,
      precision: 3,
    }),
    outputUnit: f.text({
      label: label('Unit', '单位', '單位'),
      max: 16,
      defaultValue: 'kg',
      search: undefined,
    }),
    packedQuantity: f.decimal({
      label: label('Packed', '已包装', '已包裝'),
      min: 0,
      max: 1_000_000_000,
      precision: 3,
      readOnly: true,
      sortable: false,
      computed: 'trace_process_packed(t.id)',
    }),
    recalled: f.bool({
      label: label('Recalled', '已召回', '已召回'),
      readOnly: true,
      computed: 'trace_process_recalled(t.id)',
    }),
    ...recallFields(),
  },
});

/** One harvest batch going into a process, with the quantity taken from it. */
export const traceProcessInputEntity = defineEntity({
  name: 'TraceProcessInput',
  title: label('Processing inputs', '加工投入', '加工投入'),
  table: 'trace_process_input',
  path: `${TRACE_PATH}/processInput`,
  route: TRACE_SCREENS.process,
  menuCode: 'traceProcessInput',
  scope: 'tenant',
  uniqueTogether: [['processId', 'harvestId']],
  fields: {
    processId: f.ref({
      label: label('Process', '加工批次', '加工批次'),
      required: true,
      target: TRACE_PROCESS_TARGET,
      onDelete: 'cascade',
    }),
    harvestId: f.ref({
      label: label('Harvest batch', '采收批次', '採收批次'),
      required: true,
      target: TRACE_HARVEST_TARGET,
    }),
    quantity: f.decimal({
      label: label('Quantity', '投入数量', '投入數量'),
      required: true,
      min: 0.001,
      max: 1_000_000_000,
      precision: 3,
    }),
  },
});
