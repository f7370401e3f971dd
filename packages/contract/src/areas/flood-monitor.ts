import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';
import { RAIN_WINDOWS, rainSumProperty } from './flood/rain-warning';

/**
 * Rain gauges and water-level stations against the flood warning levels (DOMAINS.md "Flood"):
 * the server sums each station's rain over 1, 3, 6, 12 and 24 h (modules/monitor/flood) and
 * raises the highest rainstorm level reached (areas/flood/rain-warning.ts); the water level is
 * judged against the station's warning and guarantee levels.
 */
export const floodMonitorArea = defineArea({
  code: 'floodMonitor',
  group: '/floodMonitor',
  title: label('Flood monitoring', '山洪监测', '山洪監測'),
  icon: 'alert',
  menuSequence: 36,
  kinds: ['flood_station'],
  keyFactors: [
    'rainfall1h',
    'rainfall3h',
    'rainfall24h',
    'waterLevel',
    'rainfall',
    'batteryVoltage',
  ],
  reportFactors: ['rainfall', 'rainfall3h', 'waterLevel', 'rainfallTotal'],
  totalFactors: ['rainfall'],
  screens: {
    warnings: 'floodMonitorAlarmList',
    deviceList: 'floodMonitorDeviceList',
    configuration: 'floodMonitorConfiguration',
    dataReport: 'floodMonitorDataReport',
  },
  widgets: { card: 'floodStation', panel: ['rainWindows', 'floodLevel'] },
  // The rolling sums over a report's range (each reading's 1-24 h rain), from the stored rain.
  derivedFactors: RAIN_WINDOWS.map((hours) => ({ property: rainSumProperty(hours), inputs: [] })),
  settings: [
    {
      key: 'warningLevel',
      label: label('Warning water level', '警戒水位', '警戒水位'),
      type: 'number',
      unit: 'm',
      min: 0,
      max: 100,
      precision: 2,
      defaultValue: 4,
      help: label(
        'A water level above it raises an orange warning.',
        '水位超过警戒水位发出橙色预警。',
        '水位超過警戒水位發出橙色預警。',
      ),
    },
    {
      key: 'guaranteeLevel',
      label: label('Guarantee water level', '保证水位', '保證水位'),
      type: 'number',
      unit: 'm',
      min: 0,
      max: 100,
      precision: 2,
      defaultValue: 5,
      help: label(
        'The highest level the banks are built to hold: above it a red warning.',
        '堤防设计保证的最高水位,超过即发出红色预警。',
        '堤防設計保證的最高水位,超過即發出紅色預警。',
      ),
    },
    {
      key: 'rainSource',
      label: label('Rain summed from', '雨量累计来源', '雨量累計來源'),
      type: 'enum',
      options: [
        {
          value: 'interval',
          label: label('Rain per reading (rainfall)', '时段雨量(rainfall)', '時段雨量(rainfall)'),
        },
        {
          value: 'counter',
          label: label(
            'Cumulative counter (rainfallTotal)',
            '累计雨量计数(rainfallTotal)',
            '累計雨量計數(rainfallTotal)',
          ),
        },
      ],
      defaultValue: 'interval',
      help: label(
        'A counter is summed from its increases; a drop is a reset, counted from zero.',
        '累计计数按增量求和;数值回落视为清零,从零重新计数。',
        '累計計數按增量求和;數值回落視為清零,從零重新計數。',
      ),
    },
  ],
  operatorScreens: ['warnings', 'deviceList', 'dataReport'],
});
