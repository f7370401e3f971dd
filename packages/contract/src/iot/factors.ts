import { label, type Label } from '../entity-kit/label';
import type { FactorCategory } from '../entities/iot/iot-dicts';

/**
 * The catalogue of measured quantities every tenant starts with (DOMAINS.md), in the units of
 * Chinese water works. Thing-model properties name their factor by `code`; the factor table
 * (iot_factor) stores the Chinese name, and screens that know the code show `name` in the
 * reader's language.
 */
export interface FactorSeed {
  code: string;
  name: Label;
  unit: string;
  precision: number;
  min: number;
  max: number;
  category: FactorCategory;
}

const factor = (
  code: string,
  name: Label,
  unit: string,
  precision: number,
  min: number,
  max: number,
  category: FactorCategory,
): FactorSeed => ({ code, name, unit, precision, min, max, category });

export const FACTORS: readonly FactorSeed[] = [
  // Hydrology
  factor('waterLevel', label('Water level', '水位', '水位'), 'm', 3, -10, 200, 'hydrology'),
  factor('flow', label('Flow', '流量', '流量'), 'm³/h', 2, 0, 100_000, 'hydrology'),
  factor('canalFlow', label('Canal flow', '渠道流量', '渠道流量'), 'm³/s', 3, 0, 1000, 'hydrology'),
  factor(
    'cumulativeVolume',
    label('Cumulative volume', '累计水量', '累計水量'),
    'm³',
    1,
    0,
    1e9,
    'hydrology',
  ),
  factor('velocity', label('Velocity', '流速', '流速'), 'm/s', 2, 0, 20, 'hydrology'),
  // Up to a day's extreme storm: the flood stations' rolling 24 h sums share the factor.
  factor('rainfall', label('Rainfall', '降雨量', '降雨量'), 'mm', 1, 0, 2000, 'hydrology'),
  // A rain gauge's own counter (SL 651 element 0x26): counts up for years until it resets.
  factor(
    'cumulativeRainfall',
    label('Cumulative rainfall', '累计雨量', '累計雨量'),
    'mm',
    1,
    0,
    100_000,
    'hydrology',
  ),
  factor('pressure', label('Pressure', '压力', '壓力'), 'MPa', 3, 0, 10, 'hydrology'),
  factor('gateOpening', label('Gate opening', '闸门开度', '閘門開度'), 'm', 2, 0, 20, 'hydrology'),
  factor('siltDepth', label('Silt depth', '淤积深度', '淤積深度'), 'm', 2, 0, 20, 'hydrology'),
  factor('runoffVolume', label('Runoff volume', '径流量', '徑流量'), 'm³', 2, 0, 1e7, 'hydrology'),
  // Soil
  factor(
    'soilMoisture',
    label('Soil moisture', '土壤含水率', '土壤含水率'),
    '%',
    1,
    0,
    100,
    'soil',
  ),
  factor(
    'soilTemperature',
    label('Soil temperature', '土壤温度', '土壤溫度'),
    '°C',
    1,
    -40,
    80,
    'soil',
  ),
  factor('soilEc', label('Soil EC', '土壤电导率', '土壤電導率'), 'mS/cm', 2, 0, 20, 'soil'),
  factor('soilPh', label('Soil pH', '土壤pH', '土壤pH'), 'pH', 2, 0, 14, 'soil'),
  factor('nitrogen', label('Nitrogen', '氮', '氮'), 'mg/kg', 0, 0, 2000, 'soil'),
  factor('phosphorus', label('Phosphorus', '磷', '磷'), 'mg/kg', 0, 0, 2000, 'soil'),
  factor('potassium', label('Potassium', '钾', '鉀'), 'mg/kg', 0, 0, 2000, 'soil'),
  // Meteorology
  factor(
    'airTemperature',
    label('Air temperature', '空气温度', '空氣溫度'),
    '°C',
    1,
    -50,
    60,
    'meteorology',
  ),
  factor(
    'airHumidity',
    label('Air humidity', '空气湿度', '空氣濕度'),
    '%',
    1,
    0,
    100,
    'meteorology',
  ),
  factor(
    'airPressure',
    label('Air pressure', '大气压', '大氣壓'),
    'hPa',
    1,
    300,
    1100,
    'meteorology',
  ),
  factor('windSpeed', label('Wind speed', '风速', '風速'), 'm/s', 1, 0, 75, 'meteorology'),
  factor('windDirection', label('Wind direction', '风向', '風向'), '°', 0, 0, 360, 'meteorology'),
  factor(
    'solarRadiation',
    label('Solar radiation', '太阳辐射', '太陽輻射'),
    'W/m²',
    0,
    0,
    2000,
    'meteorology',
  ),
  factor(
    'evapotranspiration',
    label('Reference ET0', '参考蒸散量', '參考蒸散量'),
    'mm',
    2,
    0,
    20,
    'meteorology',
  ),
  // Water quality
  factor('turbidity', label('Turbidity', '浊度', '濁度'), 'NTU', 1, 0, 4000, 'water_quality'),
  factor(
    'sedimentConcentration',
    label('Sediment concentration', '含沙量', '含沙量'),
    'kg/m³',
    3,
    0,
    1000,
    'water_quality',
  ),
  factor(
    'sedimentDischarge',
    label('Sediment discharge', '输沙率', '輸沙率'),
    'kg/s',
    3,
    0,
    100_000,
    'water_quality',
  ),
  factor('waterEc', label('Water EC', '电导率', '電導率'), 'mS/cm', 2, 0, 20, 'water_quality'),
  factor('waterPh', label('Water pH', '酸碱度', '酸鹼度'), 'pH', 2, 0, 14, 'water_quality'),
  factor(
    'waterTemperature',
    label('Water temperature', '水温', '水溫'),
    '°C',
    1,
    -5,
    50,
    'water_quality',
  ),
  // Fertigation
  factor(
    'channelFlow',
    label('Suction flow', '吸肥流量', '吸肥流量'),
    'L/h',
    1,
    0,
    5000,
    'fertigation',
  ),
  factor(
    'tankLevel',
    label('Tank level', '肥料罐液位', '肥料罐液位'),
    '%',
    0,
    0,
    100,
    'fertigation',
  ),
  // Electrical
  factor('voltage', label('Voltage', '电压', '電壓'), 'V', 1, 0, 1000, 'electrical'),
  factor('current', label('Current', '电流', '電流'), 'A', 2, 0, 2000, 'electrical'),
  factor('power', label('Power', '功率', '功率'), 'kW', 2, 0, 5000, 'electrical'),
  factor('energy', label('Energy', '电能', '電能'), 'kWh', 1, 0, 1e9, 'electrical'),
  factor('frequency', label('Frequency', '频率', '頻率'), 'Hz', 1, 0, 60, 'electrical'),
  factor(
    'batteryVoltage',
    label('Battery voltage', '电池电压', '電池電壓'),
    'V',
    2,
    0,
    30,
    'electrical',
  ),
  factor(
    'solarVoltage',
    label('Solar panel voltage', '太阳能板电压', '太陽能板電壓'),
    'V',
    2,
    0,
    60,
    'electrical',
  ),
  // Equipment state
  factor('valveState', label('Valve state', '阀门状态', '閥門狀態'), '', 0, 0, 2, 'equipment'),
  factor('runState', label('Running', '运行状态', '運行狀態'), '', 0, 0, 1, 'equipment'),
  factor(
    'signalStrength',
    label('Signal strength', '信号强度', '訊號強度'),
    'dBm',
    0,
    -130,
    0,
    'equipment',
  ),
  factor('brightness', label('Brightness', '亮度', '亮度'), '%', 0, 0, 100, 'equipment'),
  factor('faultCode', label('Fault code', '故障码', '故障碼'), '', 0, 0, 65_535, 'equipment'),
  // Agriculture
  factor(
    'insectCount',
    label('Insect count', '虫口数量', '蟲口數量'),
    'count',
    0,
    0,
    100_000,
    'agriculture',
  ),
];

const BY_CODE = new Map(FACTORS.map((one) => [one.code, one]));

/** A catalogue factor by code (throws on an unknown code: seeds must only use known ones). */
export function factorOf(code: string): FactorSeed {
  const found = BY_CODE.get(code);
  if (!found) throw new Error(`unknown factor ${code}`);
  return found;
}

/** A catalogue factor by code, or undefined (tenants add factors of their own). */
export function findFactor(code: string): FactorSeed | undefined {
  return BY_CODE.get(code);
}
