import { z } from 'zod';
import { defineEntity, f, label } from '../../entity-kit';
import { recallFields } from './trace-harvest.entity';
import { TRACE_GTIN_PATTERN } from './trace-options';
import {
  TRACE_HARVEST_TARGET,
  TRACE_PACKAGE_TARGET,
  TRACE_PATH,
  TRACE_PROCESS_TARGET,
  TRACE_SCREENS,
} from './trace-targets';

/**
 * A package batch: packed from one harvest batch or one process (exactly one of them), with its
 * GTIN (its variety's by default, check digit verified), lot (the source's batch number by
 * default), count and net quantity per package, and its trace code: 12 characters of Crockford
 * base 32 made by the server, unique across tenants (the public look-up needs no tenant). Scans
 * of its code are counted (trace_scan). Recalled if recalled itself or its source is.
 */
export const tracePackageEntity = defineEntity({
  name: 'TracePackage',
  title: label('Packaging', '包装管理', '包裝管理'),
  table: 'trace_package',
  path: `${TRACE_PATH}/package`,
  route: TRACE_SCREENS.package,
  menuCode: 'tracePackage',
  scope: 'tenant',
  defaultSort: { field: 'packedAt', order: 'descend' },
  fields: {
    traceCode: f.text({
      label: label('Trace code', '追溯码', '追溯碼'),
      max: 12,
      unique: true,
      readOnly: true,
      sortable: true,
      search: 'eq',
    }),
    harvestId: f.ref({
      label: label('Harvest batch', '采收批次', '採收批次'),
      target: TRACE_HARVEST_TARGET,
    }),
    processId: f.ref({
      label: label('Process', '加工批次', '加工批次'),
      target: TRACE_PROCESS_TARGET,
    }),
    gtin: f.text({
      label: label('GTIN', '商品条码(GTIN)', '商品條碼(GTIN)'),
      max: 14,
      pattern: TRACE_GTIN_PATTERN,
    }),
    lot: f.text({
      label: label('Batch/lot', '批号', '批號'),
      max: 20,
      pattern: { source: '^[A-Za-z0-9_.-]*$', key: 'validation.identifier' },
    }),
    packageCount: f.int({
      label: label('Packages', '包装数量', '包裝數量'),
      required: true,
      min: 1,
      max: 10_000_000,
    }),
    netQuantity: f.decimal({
      label: label('Net per package', '每件净含量', '每件淨含量'),
      required: true,
      min: 0.001,
      max: 1_000_000,
      precision: 3,
    }),
    unit: f.text({
      label: label('Unit', '单位', '單位'),
      max: 16,
      defaultValue: 'kg',
      search: undefined,
    }),
    packedAt: f.datetime({ label: label('Packed at', '包装时间', '包裝時間'), required: true }),
    bestBefore: f.datetime({ label: label('Best before', '保质期至', '保質期至') }),
    shippedCount: f.int({
      label: label('Shipped', '已发货', '已發貨'),
      readOnly: true,
      sortable: false,
      computed: 'trace_package_shipped(t.id)',
    }),
    scanCount: f.int({
      label: label('Scans', '扫码次数', '掃碼次數'),
      readOnly: true,
      sortable: false,
      computed: '(SELECT count(*)::int FROM trace_scan s WHERE s.package_id = t.id)',
    }),
    firstScanAt: f.datetime({
      label: label('First scan', '首次扫码', '首次掃碼'),
      readOnly: true,
      sortable: false,
      list: false,
      computed: '(SELECT min(s.scanned_at) FROM trace_scan s WHERE s.package_id = t.id)',
    }),
    recalled: f.bool({
      label: label('Recalled', '已召回', '已召回'),
      readOnly: true,
      computed: 'trace_package_recalled(t.id)',
    }),
    ...recallFields(),
  },
});

/** One temperature recorded during a shipment. */
export const traceShipmentTemperatureSchema = z.object({
  at: z.iso.datetime({ offset: true, error: 'validation.invalid' }),
  celsius: z.number({ error: 'validation.invalid' }).min(-80).max(80),
});
export type TraceShipmentTemperature = z.infer<typeof traceShipmentTemperatureSchema>;

/** The temperatures as a list, or as its JSON text (a form's text area sends that). */
const temperaturesInput = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return [];
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.array(traceShipmentTemperatureSchema, { error: 'validation.invalid' }).max(2000),
);

/**
 * A shipment of a package batch: how many packages, carrier, vehicle, from, to, times, and the
 * temperatures recorded on the way. Packages shipped never exceed packages packed (server rule).
 */
export const traceShipmentEntity = defineEntity({
  name: 'TraceShipment',
  title: label('Logistics', '物流管理', '物流管理'),
  table: 'trace_shipment',
  path: `${TRACE_PATH}/shipment`,
  route: TRACE_SCREENS.logistics,
  menuCode: 'logistics',
  scope: 'tenant',
  defaultSort: { field: 'departedAt', order: 'descend' },
  fields: {
    packageId: f.ref({
      label: label('Package batch', '包装批次', '包裝批次'),
      required: true,
      target: TRACE_PACKAGE_TARGET,
    }),
    packageCount: f.int({
      label: label('Packages shipped', '发货件数', '發貨件數'),
      required: true,
      min: 1,
      max: 10_000_000,
    }),
    carrier: f.text({ label: label('Carrier', '承运商', '承運商'), max: 64 }),
    vehicle: f.text({ label: label('Vehicle', '车牌号', '車牌號'), max: 32 }),
    fromPlace: f.text({
      label: label('From', '起运地', '起運地'),
      required: true,
      max: 128,
    }),
    toPlace: f.text({ label: label('To', '目的地', '目的地'), required: true, max: 128 }),
    departedAt: f.datetime({
      label: label('Departed at', '发车时间', '發車時間'),
      required: true,
    }),
    arrivedAt: f.datetime({ label: label('Arrived at', '到达时间', '到達時間') }),
    temperatures: {
      ...f.json({ label: label('Temperatures', '温度记录', '溫度記錄') }),
      input: temperaturesInput,
      writeOnly: false,
      form: true,
    },
    minCelsius: f.decimal({
      label: label('Min °C', '最低温度(°C)', '最低溫度(°C)'),
      min: -80,
      max: 80,
      precision: 1,
      readOnly: true,
      sortable: false,
      computed: `(SELECT min((x->>'celsius')::float8) FROM jsonb_array_elements(coalesce(t.temperatures, '[]'::jsonb)) x)`,
    }),
    maxCelsius: f.decimal({
      label: label('Max °C', '最高温度(°C)', '最高溫度(°C)'),
      min: -80,
      max: 80,
      precision: 1,
      readOnly: true,
      sortable: false,
      computed: `(SELECT max((x->>'celsius')::float8) FROM jsonb_array_elements(coalesce(t.temperatures, '[]'::jsonb)) x)`,
    }),
    recalled: f.bool({
      label: label('Recalled', '已召回', '已召回'),
      readOnly: true,
      computed: 'trace_package_recalled(t.package_id)',
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});
