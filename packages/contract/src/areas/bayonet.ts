import { label } from '../entity-kit/label';
import type { ThingProperty } from '../iot/thing-model';
import { defineArea } from './area-kit';

const ratedFlow: ThingProperty = {
  key: 'ratedFlow',
  name: label('Flow (rating curve)', '流量(水位流量关系)', '流量(水位流量關係)'),
  type: 'number',
  unit: 'm³/s',
  min: 0,
  max: 100_000,
  precision: 3,
  access: 'r',
} as ThingProperty;

const ratedSedimentDischarge: ThingProperty = {
  key: 'ratedSedimentDischarge',
  name: label('Sediment discharge', '输沙率', '輸沙率'),
  type: 'number',
  unit: 'kg/s',
  min: 0,
  max: 10_000_000,
  precision: 3,
  access: 'r',
} as ThingProperty;

/**
 * Small-watershed outlet ("bayonet") stations: they gauge the level and sample the sediment
 * concentration; the server turns each stored level into flow with the station's rating curve
 * valid at its time (entities/monitor/rating-curve.entity.ts), and flow × concentration into
 * sediment discharge (modules/monitor/bayonet).
 */
export const bayonetArea = defineArea({
  code: 'bayonet',
  group: '/bayonet',
  title: label('Watershed outlets', '卡口站监测', '卡口站監測'),
  icon: 'audit',
  menuSequence: 38,
  kinds: ['bayonet_station'],
  keyFactors: ['waterLevel', 'sedimentConcentration', 'batteryVoltage'],
  reportFactors: ['waterLevel', 'ratedFlow', 'sedimentConcentration', 'ratedSedimentDischarge'],
  totalFactors: [],
  screens: {
    deviceList: 'bayonetDeviceList',
    configuration: 'bayonetConfiguration',
    dataReport: 'bayonetDataReport',
  },
  widgets: { panel: ['bayonetFlow'] },
  derivedFactors: [
    { property: ratedFlow, inputs: ['waterLevel'] },
    { property: ratedSedimentDischarge, inputs: ['waterLevel', 'sedimentConcentration'] },
  ],
  settings: [],
  operatorScreens: ['deviceList', 'dataReport'],
});
