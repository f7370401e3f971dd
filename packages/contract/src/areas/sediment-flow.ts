import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/**
 * Surface-runoff plots and their events (DOMAINS.md "Runoff plots"): each plot has its own
 * tipping-bucket gauge (rainfall per reading), a flume measuring the runoff it sheds (flow) and a
 * sediment sampler (concentration). The server cuts events out of the stored flow with the
 * plot's settings and totals each (modules/monitor/runoff).
 */
export const sedimentFlowArea = defineArea({
  code: 'sedimentFlow',
  group: '/sedimentFlow',
  title: label('Surface runoff', '径流泥沙', '徑流泥沙'),
  icon: 'bars',
  menuSequence: 37,
  kinds: ['sediment_station'],
  keyFactors: ['rainfall', 'flow', 'sedimentConcentration', 'sedimentDischarge', 'turbidity'],
  reportFactors: ['flow', 'rainfall', 'sedimentConcentration', 'sedimentDischarge'],
  totalFactors: ['rainfall'],
  screens: {
    warnings: 'sedimentFlowAlarmList',
    deviceList: 'sedimentFlowDeviceList',
    configuration: 'sedimentFlowConfiguration',
    dataReport: 'sedimentFlowDataReport',
  },
  widgets: { card: 'runoffCard', panel: ['runoffEvents'], report: ['runoffEventList'] },
  settings: [
    {
      key: 'plotArea',
      label: label('Plot area', '小区面积', '小區面積'),
      type: 'number',
      unit: 'm²',
      min: 1,
      max: 1_000_000,
      precision: 1,
      defaultValue: 100,
      help: label(
        'The runoff depth of an event is its volume over this area (a standard plot is 5 m × 20 m).',
        '产流事件的径流深=径流量÷小区面积(标准小区 5m×20m)。',
        '產流事件的徑流深=徑流量÷小區面積(標準小區 5m×20m)。',
      ),
    },
    {
      key: 'startFlow',
      label: label('Runoff starts above', '产流起始流量', '產流起始流量'),
      type: 'number',
      unit: 'L/s',
      min: 0,
      max: 10_000,
      precision: 4,
      defaultValue: 0.005,
      help: label(
        'An event starts when the flow rises above this.',
        '流量超过此值即开始一次产流事件。',
        '流量超過此值即開始一次產流事件。',
      ),
    },
    {
      key: 'quietMinutes',
      label: label('Event ends after', '事件结束静默时长', '事件結束靜默時長'),
      type: 'integer',
      unit: 'min',
      min: 5,
      max: 1440,
      defaultValue: 60,
      help: label(
        'An event ends once the flow has stayed at or below the start flow this long.',
        '流量持续不高于起始流量达到该时长，事件结束。',
        '流量持續不高於起始流量達到該時長，事件結束。',
      ),
    },
    {
      key: 'rainLeadMinutes',
      label: label('Rain counted from', '降雨统计提前时长', '降雨統計提前時長'),
      type: 'integer',
      unit: 'min',
      min: 0,
      max: 1440,
      defaultValue: 180,
      help: label(
        "An event's rainfall is the rain from this long before its runoff started until it ended.",
        '事件降雨量统计自产流开始前该时长起至事件结束。',
        '事件降雨量統計自產流開始前該時長起至事件結束。',
      ),
    },
  ],
  operatorScreens: ['warnings', 'deviceList', 'dataReport'],
});
