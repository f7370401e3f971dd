import { label } from '../entity-kit/label';
import { defineArea, type AreaDef, type AreaScreen } from './area-kit';
import { bayonetArea } from './bayonet';
import { floodMonitorArea } from './flood-monitor';
import { insectArea } from './insect';
import { ledArea } from './led';
import { sedimentFlowArea } from './sediment-flow';
import { siltArea } from './silt';
import { skggArea } from './skgg';
import { traceabilityArea } from './traceability';
import { videoArea } from './video';

const SOIL_TYPES = [
  { value: 'sand', label: label('Sand', '砂土', '砂土') },
  { value: 'sandyLoam', label: label('Sandy loam', '砂壤土', '砂壤土') },
  { value: 'loam', label: label('Loam', '壤土', '壤土') },
  { value: 'clayLoam', label: label('Clay loam', '黏壤土', '黏壤土') },
  { value: 'clay', label: label('Clay', '黏土', '黏土') },
] as const;
export type SoilType = (typeof SOIL_TYPES)[number]['value'];

/**
 * Volumetric field capacity and permanent wilting point (%) per soil type, the lines of the
 * soil-moisture depth profile (typical values, FAO-56 Table 19 midpoints).
 */
export const SOIL_WATER_LIMITS: Record<SoilType, { fieldCapacity: number; wiltingPoint: number }> =
  {
    sand: { fieldCapacity: 12, wiltingPoint: 4.5 },
    sandyLoam: { fieldCapacity: 18, wiltingPoint: 8 },
    loam: { fieldCapacity: 27, wiltingPoint: 12 },
    clayLoam: { fieldCapacity: 32, wiltingPoint: 17 },
    clay: { fieldCapacity: 40, wiltingPoint: 25 },
  };

/** Field irrigation controllers driving latching valves (DOMAINS.md "Irrigation"). */
export const irrigationArea = defineArea({
  code: 'irrigation',
  group: '/irrigation',
  title: label('Irrigation', '灌溉控制', '灌溉控制'),
  icon: 'cluster',
  menuSequence: 30,
  kinds: ['irrigation_valve'],
  keyFactors: [
    'valve1State',
    'valve2State',
    'valve3State',
    'valve4State',
    'pressure',
    'flow',
    'batteryVoltage',
  ],
  reportFactors: ['flow', 'pressure', 'cumulativeVolume'],
  totalFactors: ['cumulativeVolume'],
  screens: {
    deviceList: 'irrigationDevice',
    configuration: 'irrigationMonitorConfiguration',
    dataReport: 'irrigationDataReport',
  },
  widgets: { card: 'valveChannels', panel: ['irrigationPlan', 'waterDelivered'] },
  settings: [],
  operatorScreens: ['deviceList', 'dataReport'],
});

/** Canal gates (DOMAINS.md "sluice irrigation"). */
export const sluiceIrrigationArea = defineArea({
  code: 'sluiceIrrigation',
  group: '/sluiceIrrigation',
  title: label('Sluice irrigation', '闸门灌溉', '閘門灌溉'),
  icon: 'control',
  menuSequence: 31,
  kinds: ['sluice_gate'],
  keyFactors: ['gateOpening', 'gateState', 'upstreamLevel', 'downstreamLevel', 'flow'],
  reportFactors: ['gateOpening', 'upstreamLevel', 'downstreamLevel', 'flow'],
  totalFactors: [],
  screens: { deviceList: 'sluiceIrrigationDeviceManagement' },
  widgets: { card: 'gate', panel: ['gateFlow'] },
  settings: [],
  operatorScreens: ['deviceList'],
});

/** Pump stations on variable-frequency drives fed from a forebay (DOMAINS.md "Pump stations"). */
export const pumpStationArea = defineArea({
  code: 'pumpStation',
  group: '/pumpStation',
  title: label('Pump stations', '泵站监控', '泵站監控'),
  icon: 'thunderbolt',
  menuSequence: 32,
  kinds: ['pump_station'],
  keyFactors: [
    'pump1Running',
    'pump1Frequency',
    'pump2Running',
    'pump2Frequency',
    'outletPressure',
    'flow',
    'forebayLevel',
  ],
  reportFactors: ['flow', 'outletPressure', 'forebayLevel', 'energy', 'cumulativeVolume'],
  totalFactors: ['cumulativeVolume', 'energy'],
  screens: {
    deviceList: 'pumpDevice',
    configuration: 'pumpMonitorConfiguration',
    warnings: 'pumpWarnInfor',
    operations: 'pumpOperationRecord',
  },
  widgets: { card: 'pumpStation', panel: ['pumpTrend'] },
  settings: [
    {
      key: 'dryRunLevel',
      label: label('Dry-run level', '干运行保护水位', '乾運轉保護水位'),
      type: 'number',
      unit: 'm',
      min: 0,
      max: 10,
      precision: 2,
      defaultValue: 1,
      help: label(
        'A pump is never started while the forebay is below this level.',
        '前池水位低于此值时拒绝启泵。',
        '前池水位低於此值時拒絕啟泵。',
      ),
    },
  ],
  operatorScreens: ['deviceList', 'warnings', 'operations'],
});

/** Fertigation machines (DOMAINS.md "Water and fertilizer"). */
export const waterFertilizerArea = defineArea({
  code: 'waterFertilizer',
  group: '/waterFertilizer',
  title: label('Water and fertilizer', '水肥一体化', '水肥一體化'),
  icon: 'experiment',
  menuSequence: 33,
  kinds: ['water_fertilizer'],
  keyFactors: ['running', 'ec', 'ph', 'mainFlow', 'mainPressure'],
  reportFactors: ['ec', 'ph', 'mainFlow', 'channelAFlow', 'channelBFlow', 'channelCFlow'],
  totalFactors: [],
  screens: {
    configuration: 'waterFertilizerMonitorConfiguration',
    deviceList: 'waterFertilizerDevice',
    dataReport: 'waterFertilizerDataReport',
    warnings: 'waterFertilizerWarnInfor',
    regional: 'waterFertilizerRegionalManagement',
    operations: 'waterFertilizerOperationRecord',
  },
  widgets: { card: 'fertigation', panel: ['ecPhTargets', 'fertilizerUse'] },
  settings: [
    {
      key: 'ecBand',
      label: label('EC band', 'EC允许偏差', 'EC允許偏差'),
      type: 'number',
      unit: 'mS/cm',
      min: 0,
      max: 5,
      precision: 2,
      defaultValue: 0.5,
      help: label(
        'A running program stops when EC leaves target ± this band.',
        'EC超出目标值±此偏差时程序停止。',
        'EC超出目標值±此偏差時程式停止。',
      ),
    },
    {
      key: 'phBand',
      label: label('pH band', 'pH允许偏差', 'pH允許偏差'),
      type: 'number',
      min: 0,
      max: 3,
      precision: 2,
      defaultValue: 0.5,
      help: label(
        'A running program stops when pH leaves target ± this band.',
        'pH超出目标值±此偏差时程序停止。',
        'pH超出目標值±此偏差時程式停止。',
      ),
    },
  ],
  operatorScreens: ['deviceList', 'dataReport', 'warnings', 'operations'],
});

/** Multi-depth soil moisture probes (DOMAINS.md "Soil moisture"). */
export const soilMoistureArea = defineArea({
  code: 'soilMoisture',
  group: '/soilMoisture',
  title: label('Soil moisture', '墒情监测', '墒情監測'),
  icon: 'dashboard',
  menuSequence: 34,
  kinds: ['soil_moisture'],
  keyFactors: ['soilMoisture10', 'soilMoisture20', 'soilMoisture40', 'soilMoisture60', 'soilEc20'],
  reportFactors: ['soilMoisture10', 'soilMoisture20', 'soilMoisture40', 'soilMoisture60'],
  totalFactors: [],
  screens: {
    monitor: 'soilMoistureMonitor',
    deviceList: 'soilMoistureDevice',
    dataReport: 'soilMoistureDataReport',
    warnings: 'soilMoistureWarnInfor',
    regional: 'soilMoistureRegionalManagement',
    operations: 'soilMoistureOperationRecord',
  },
  widgets: { card: 'soilBars', panel: ['soilProfile'] },
  settings: [
    {
      key: 'soilType',
      label: label('Soil type', '土壤类型', '土壤類型'),
      type: 'enum',
      options: SOIL_TYPES,
      defaultValue: 'loam',
      help: label(
        'Sets the field capacity and wilting point lines of the depth profile.',
        '决定剖面图上的田间持水量与凋萎点。',
        '決定剖面圖上的田間持水量與凋萎點。',
      ),
    },
    {
      key: 'droughtThreshold',
      label: label('Drought below', '干旱阈值', '乾旱閾值'),
      type: 'number',
      unit: '%',
      min: 0,
      max: 60,
      precision: 1,
      defaultValue: 15,
    },
    {
      key: 'droughtHours',
      label: label('For at least', '持续时长', '持續時長'),
      type: 'integer',
      unit: 'h',
      min: 1,
      max: 720,
      defaultValue: 24,
      help: label(
        'A drought warning is raised when the 20 cm moisture stays below the threshold this long.',
        '20cm含水率低于阈值持续该时长即发出干旱预警。',
        '20cm含水率低於閾值持續該時長即發出乾旱預警。',
      ),
    },
  ],
  operatorScreens: ['monitor', 'deviceList', 'dataReport', 'warnings', 'operations'],
});

/** Automatic weather stations (DOMAINS.md "Weather stations"). */
export const weatherStationArea = defineArea({
  code: 'weatherStation',
  group: '/weatherStation',
  title: label('Weather stations', '气象监测', '氣象監測'),
  icon: 'cloud',
  menuSequence: 35,
  kinds: ['weather_station'],
  keyFactors: ['airTemperature', 'airHumidity', 'windSpeed', 'windDirection', 'rainfall'],
  reportFactors: ['airTemperature', 'airHumidity', 'rainfall', 'windSpeed', 'solarRadiation'],
  totalFactors: ['rainfall'],
  screens: {
    deviceList: 'weatherDevice',
    monitor: 'weatherMonitor',
    dataReport: 'weatherDataReport',
    warnings: 'weatherWarnInfor',
  },
  widgets: { card: 'weatherNow', panel: ['windRose', 'weather24h', 'rainEt0'] },
  settings: [
    {
      key: 'altitude',
      label: label('Altitude', '海拔', '海拔'),
      type: 'number',
      unit: 'm',
      min: -500,
      max: 9000,
      precision: 0,
      defaultValue: 100,
      help: label(
        'Used for the daily reference evapotranspiration (FAO-56).',
        '用于计算每日参考作物蒸散量(FAO-56)。',
        '用於計算每日參考作物蒸散量(FAO-56)。',
      ),
    },
    {
      key: 'windHeight',
      label: label('Anemometer height', '风速计高度', '風速計高度'),
      type: 'number',
      unit: 'm',
      min: 0.5,
      max: 100,
      precision: 1,
      defaultValue: 10,
    },
  ],
  operatorScreens: ['deviceList', 'monitor', 'dataReport', 'warnings'],
});

/** Every area, in menu order. */
export const AREAS: readonly AreaDef[] = [
  irrigationArea,
  sluiceIrrigationArea,
  pumpStationArea,
  waterFertilizerArea,
  soilMoistureArea,
  weatherStationArea,
  floodMonitorArea,
  sedimentFlowArea,
  bayonetArea,
  siltArea,
  insectArea,
  videoArea,
  ledArea,
  skggArea,
  traceabilityArea,
];

/** The areas of devices: every area but those of pages only (traceability). */
export const DEVICE_AREAS: readonly AreaDef[] = AREAS.filter((area) => area.kinds.length > 0);

/** The cross-area screens: spec top-level paths over every area's devices. */
export const CROSS_AREA_SCREENS: Partial<Record<AreaScreen, string>> = {
  dataReport: '/deviceDataReport',
  warnings: '/warningInformation',
};

/** The area of a code, or undefined. */
export const areaOf = (code: string): AreaDef | undefined =>
  AREAS.find((area) => area.code === code);
