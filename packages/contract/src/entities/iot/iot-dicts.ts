import { label, type Label } from '../../entity-kit';
import type { DictSeed } from '../admin/default-dicts';

/** Every device area the console covers (DOMAINS.md); one seeded product per kind. */
export const DEVICE_KINDS = [
  'irrigation_valve',
  'pump_station',
  'sluice_gate',
  'water_fertilizer',
  'weather_station',
  'flood_station',
  'soil_moisture',
  'sediment_station',
  'silt_station',
  'bayonet_station',
  'insect_trap',
  'camera',
  'led_screen',
  'card_controller',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const DEVICE_KIND_LABELS: Record<DeviceKind, Label> = {
  irrigation_valve: label('Irrigation valve controller', '灌溉阀门控制器', '灌溉閥門控制器'),
  pump_station: label('Pump station', '泵站', '泵站'),
  sluice_gate: label('Sluice gate', '闸门', '閘門'),
  water_fertilizer: label('Water-fertilizer machine', '水肥一体机', '水肥一體機'),
  weather_station: label('Weather station', '气象站', '氣象站'),
  flood_station: label('Flood and rain station', '山洪雨量站', '山洪雨量站'),
  soil_moisture: label('Soil moisture station', '墒情站', '墒情站'),
  sediment_station: label('Sediment station', '泥沙站', '泥沙站'),
  silt_station: label('Silt monitoring station', '淤积监测站', '淤積監測站'),
  bayonet_station: label('Water checkpoint (flow meter)', '卡口站', '卡口站'),
  insect_trap: label('Insect trap lamp', '虫情测报灯', '蟲情測報燈'),
  camera: label('Camera', '摄像头', '攝影機'),
  led_screen: label('LED screen', 'LED显示屏', 'LED顯示屏'),
  card_controller: label('Card-swipe irrigation controller', '刷卡灌溉控制器', '刷卡灌溉控制器'),
};

/** Field protocols a product can speak (DESIGN §9); each is an adapter onto the same shapes. */
export const PROTOCOLS = [
  { value: 'mqtt_json', label: label('MQTT JSON', 'MQTT JSON', 'MQTT JSON') },
  { value: 'http_push', label: label('HTTP push', 'HTTP 推送', 'HTTP 推送') },
  {
    value: 'lorawan',
    label: label('LoRaWAN (ChirpStack)', 'LoRaWAN（ChirpStack）', 'LoRaWAN（ChirpStack）'),
  },
  {
    value: 'modbus_rtu',
    label: label('Modbus RTU via DTU', 'Modbus RTU（DTU）', 'Modbus RTU（DTU）'),
  },
  { value: 'modbus_tcp', label: label('Modbus TCP', 'Modbus TCP', 'Modbus TCP') },
  { value: 'sl651', label: label('SL 651-2014', 'SL 651-2014 水文规约', 'SL 651-2014 水文規約') },
  { value: 'szy206', label: label('SZY 206', 'SZY 206 水资源规约', 'SZY 206 水資源規約') },
  { value: 'hj212', label: label('HJ 212', 'HJ 212 环保规约', 'HJ 212 環保規約') },
] as const;
export type Protocol = (typeof PROTOCOLS)[number]['value'];

export const FACTOR_CATEGORIES = [
  ['hydrology', label('Hydrology', '水文', '水文')],
  ['soil', label('Soil', '土壤', '土壤')],
  ['meteorology', label('Meteorology', '气象', '氣象')],
  ['water_quality', label('Water quality', '水质', '水質')],
  ['fertigation', label('Fertigation', '水肥', '水肥')],
  ['electrical', label('Electrical', '电气', '電氣')],
  ['equipment', label('Equipment state', '设备状态', '設備狀態')],
  ['agriculture', label('Agriculture', '农业', '農業')],
] as const satisfies ReadonlyArray<readonly [string, Label]>;
export type FactorCategory = (typeof FACTOR_CATEGORIES)[number][0];

/** The IoT dictionaries every tenant starts with (merged into DEFAULT_DICTS). */
export const IOT_DICTS: DictSeed[] = [
  ...DEVICE_KINDS.map((kind) => ({
    dictType: 'device_kind',
    dictValue: kind,
    label: DEVICE_KIND_LABELS[kind],
  })),
  ...FACTOR_CATEGORIES.map(([value, text]) => ({
    dictType: 'factor_category',
    dictValue: value,
    label: text,
  })),
];
