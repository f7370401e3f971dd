import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import { RUNOFF_PATH, RUNOFF_REPORT_SCREEN } from './hydrology-targets';

const measured = (en: string, zh: string, tw: string, precision: number) =>
  f.decimal({
    label: label(en, zh, tw),
    readOnly: true,
    min: 0,
    max: 1e12,
    precision,
  });

/**
 * A runoff event of a runoff plot, detected by the server from the plot's stored readings
 * (modules/monitor/runoff): it starts when the flow rises above the plot's start threshold and
 * ends once it has stayed at or below it for the plot's quiet time. Written by the server only;
 * listed, filtered and exported like any entity. `ongoing` events are still flowing and are
 * completed by a later detection.
 */
export const runoffEventEntity = defineEntity({
  name: 'RunoffEvent',
  title: label('Runoff events', '产流事件', '產流事件'),
  table: 'monitor_runoff_event',
  path: RUNOFF_PATH,
  route: RUNOFF_REPORT_SCREEN,
  menuCode: 'runoffEvent',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'startAt', order: 'descend' },
  uniqueTogether: [['deviceId', 'startAt']],
  fields: {
    deviceId: f.ref({
      label: label('Runoff plot', '径流小区', '徑流小區'),
      required: true,
      readOnly: true,
      target: DEVICE_TARGET,
      onDelete: 'cascade',
      search: 'eq',
    }),
    startAt: f.datetime({
      label: label('Start', '开始时间', '開始時間'),
      required: true,
      readOnly: true,
    }),
    endAt: f.datetime({ label: label('End', '结束时间', '結束時間'), readOnly: true }),
    ongoing: f.bool({ label: label('Ongoing', '进行中', '進行中'), readOnly: true }),
    rainfall: measured('Rainfall (mm)', '降雨量(mm)', '降雨量(mm)', 1),
    runoffVolume: measured('Runoff volume (m³)', '径流量(m³)', '徑流量(m³)', 4),
    runoffDepth: measured('Runoff depth (mm)', '径流深(mm)', '徑流深(mm)', 2),
    runoffCoefficient: measured('Runoff coefficient', '径流系数', '徑流係數', 3),
    sedimentYield: measured('Sediment yield (kg)', '产沙量(kg)', '產沙量(kg)', 3),
    peakFlow: measured('Peak flow (L/s)', '洪峰流量(L/s)', '洪峰流量(L/s)', 3),
    plotArea: measured('Plot area (m²)', '小区面积(m²)', '小區面積(m²)', 1),
  },
});
