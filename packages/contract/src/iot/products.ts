import { label, type Label } from '../entity-kit/label';
import type { DeviceKind, Protocol } from '../entities/iot/iot-dicts';
import { RAIN_WINDOWS, rainSumProperty } from '../areas/flood/rain-warning';
import { CARD_CONTROLLER_COMMANDS, CARD_CONTROLLER_EVENTS } from '../billing/card-controller';
import { factorOf } from './factors';
import type {
  ThingCommand,
  ThingEvent,
  ThingModel,
  ThingParam,
  ThingProperty,
} from './thing-model';

/**
 * One product per device kind, seeded for every tenant: realistic thing models the simulator,
 * ingestion and the monitoring screens work with. Tenants edit them or add their own.
 */
export interface ProductSeed {
  serialNo: string;
  kind: DeviceKind;
  name: Label;
  protocol: Protocol;
  description: string;
  thingModel: ThingModel;
}

type Overrides = Partial<Omit<ThingParam, 'key' | 'factor'>>;

/** A measured value of a catalogue factor (its unit, range and precision unless overridden). */
function measure(
  key: string,
  factor: string,
  name?: Label,
  overrides: Overrides = {},
): ThingProperty {
  const seed = factorOf(factor);
  return {
    key,
    name: name ?? seed.name,
    type: 'number',
    ...(seed.unit ? { unit: seed.unit } : {}),
    min: seed.min,
    max: seed.max,
    precision: seed.precision,
    factor,
    access: 'r',
    ...overrides,
  } as ThingProperty;
}

const OPEN_CLOSED = [
  { value: 0, label: label('Closed', '关', '關') },
  { value: 1, label: label('Open', '开', '開') },
  { value: 2, label: label('Fault', '故障', '故障') },
];

function valveState(channel: number): ThingProperty {
  return {
    key: `valve${channel}State`,
    name: label(`Valve ${channel}`, `${channel}号阀门`, `${channel}號閥門`),
    type: 'enum',
    factor: 'valveState',
    options: OPEN_CLOSED,
    access: 'r',
  } as ThingProperty;
}

/** The flood stations' rolling rainfall sums (areas/flood/rain-warning.ts RAIN_WINDOWS). */
const ROLLING_RAIN: ThingProperty[] = RAIN_WINDOWS.map(rainSumProperty);

function running(key: string, name: Label, access: 'r' | 'rw' = 'r'): ThingProperty {
  return { key, name, type: 'boolean', factor: 'runState', access } as ThingProperty;
}

function int(key: string, name: Label, min: number, max: number, unit?: string): ThingParam {
  return { key, name, type: 'integer', min, max, ...(unit ? { unit } : {}) } as ThingParam;
}

function num(
  key: string,
  name: Label,
  min: number,
  max: number,
  unit: string,
  precision: number,
): ThingParam {
  return { key, name, type: 'number', min, max, unit, precision } as ThingParam;
}

function text(key: string, name: Label): ThingParam {
  return { key, name, type: 'string' } as ThingParam;
}

/** `property`: the live value it acts on (ThingCommand.property), for the control on its tile. */
function command(
  key: string,
  name: Label,
  params: ThingParam[] = [],
  timeoutSeconds = 30,
  property?: string,
) {
  return { key, name, params, timeoutSeconds, ...(property ? { property } : {}) } as ThingCommand;
}

function event(
  key: string,
  name: Label,
  level: ThingEvent['level'],
  params: ThingParam[] = [],
): ThingEvent {
  return { key, name, level, params };
}

const CHANNEL = (max: number) => int('channel', label('Channel', '通道', '通道'), 1, max);
const DURATION = int('durationMinutes', label('Duration', '时长', '時長'), 1, 1440, 'min');
const PUMP_NO = (max: number) => int('pumpNo', label('Pump', '水泵', '水泵'), 1, max);
const CODE = int('code', label('Fault code', '故障码', '故障碼'), 0, 65_535);

/** Power and link health most field RTUs report. */
const POWER_AND_SIGNAL = [
  measure('batteryVoltage', 'batteryVoltage'),
  measure('signalStrength', 'signalStrength'),
];
const LOW_BATTERY = event(
  'lowBattery',
  label('Low battery', '电池电量低', '電池電量低'),
  'warning',
  [num('voltage', label('Voltage', '电压', '電壓'), 0, 30, 'V', 2)],
);
const TAMPER = event('tamper', label('Cabinet opened', '箱门被打开', '箱門被打開'), 'warning');

const pump = (n: number): ThingProperty[] => [
  running(`pump${n}Running`, label(`Pump ${n} running`, `${n}号泵运行`, `${n}號泵運行`)),
  measure(
    `pump${n}Frequency`,
    'frequency',
    label(`Pump ${n} frequency`, `${n}号泵频率`, `${n}號泵頻率`),
    {
      max: 50,
    },
  ),
  measure(
    `pump${n}Current`,
    'current',
    label(`Pump ${n} current`, `${n}号泵电流`, `${n}號泵電流`),
    {
      max: 400,
    },
  ),
  measure(
    `pump${n}Voltage`,
    'voltage',
    label(`Pump ${n} voltage`, `${n}号泵电压`, `${n}號泵電壓`),
    {
      max: 500,
    },
  ),
  measure(`pump${n}Power`, 'power', label(`Pump ${n} power`, `${n}号泵功率`, `${n}號泵功率`), {
    max: 250,
  }),
];

const soilDepth = (depth: number): ThingProperty[] => [
  measure(
    `soilMoisture${depth}`,
    'soilMoisture',
    label(`Moisture ${depth} cm`, `${depth}cm含水率`, `${depth}cm含水率`),
  ),
  measure(
    `soilTemperature${depth}`,
    'soilTemperature',
    label(`Temperature ${depth} cm`, `${depth}cm温度`, `${depth}cm溫度`),
  ),
];

const fertChannel = (key: string, name: string, zh: string): ThingProperty[] => [
  measure(
    `channel${key}Flow`,
    'channelFlow',
    label(`${name} suction`, `${zh}吸肥流量`, `${zh}吸肥流量`),
    {
      max: 1000,
    },
  ),
  measure(`tank${key}Level`, 'tankLevel', label(`${name} tank`, `${zh}罐液位`, `${zh}罐液位`)),
];

export const PRODUCTS: readonly ProductSeed[] = [
  {
    serialNo: 'IRR-VALVE-4',
    kind: 'irrigation_valve',
    name: label('4-channel valve controller', '四路灌溉阀门控制器', '四路灌溉閥門控制器'),
    protocol: 'mqtt_json',
    description: 'Solar RTU driving four latching valves, with pressure and flow metering',
    thingModel: {
      reportIntervalSeconds: 60,
      properties: [
        valveState(1),
        valveState(2),
        valveState(3),
        valveState(4),
        measure('pressure', 'pressure', undefined, { max: 1.6 }),
        measure('flow', 'flow', undefined, { max: 200 }),
        measure('cumulativeVolume', 'cumulativeVolume'),
        measure('solarVoltage', 'solarVoltage'),
        ...POWER_AND_SIGNAL,
      ],
      events: [
        LOW_BATTERY,
        TAMPER,
        event('valveFault', label('Valve fault', '阀门故障', '閥門故障'), 'fault', [CHANNEL(4)]),
        event(
          'pipeBurst',
          label('Pressure drop (pipe burst)', '压力骤降(爆管)', '壓力驟降(爆管)'),
          'fault',
        ),
      ],
      commands: [
        command(
          'openValve',
          label('Open valve', '开阀', '開閥'),
          [CHANNEL(4), DURATION],
          30,
          'valve{channel}State',
        ),
        command(
          'closeValve',
          label('Close valve', '关阀', '關閥'),
          [CHANNEL(4)],
          30,
          'valve{channel}State',
        ),
      ],
    },
  },
  {
    serialNo: 'PUMP-VFD-2',
    kind: 'pump_station',
    name: label('Pump station (2 VFD pumps)', '泵站(双变频泵)', '泵站(雙變頻泵)'),
    protocol: 'mqtt_json',
    description: 'Two pumps on variable-frequency drives fed from a forebay',
    thingModel: {
      reportIntervalSeconds: 60,
      properties: [
        ...pump(1),
        ...pump(2),
        measure('outletPressure', 'pressure', label('Outlet pressure', '出口压力', '出口壓力'), {
          max: 2.5,
        }),
        measure('flow', 'flow', undefined, { max: 2000 }),
        measure('cumulativeVolume', 'cumulativeVolume'),
        measure('energy', 'energy'),
        measure('forebayLevel', 'waterLevel', label('Forebay level', '前池水位', '前池水位'), {
          min: 0,
          max: 10,
        }),
      ],
      events: [
        event('overcurrent', label('Overcurrent', '过流', '過流'), 'fault', [
          PUMP_NO(2),
          num('current', label('Current', '电流', '電流'), 0, 2000, 'A', 2),
        ]),
        event('dryRun', label('Dry-run protection', '干运行保护', '乾運轉保護'), 'fault', [
          PUMP_NO(2),
        ]),
        event('driveFault', label('Drive fault', '变频器故障', '變頻器故障'), 'fault', [
          PUMP_NO(2),
          CODE,
        ]),
        event('pressureHigh', label('Pressure too high', '压力过高', '壓力過高'), 'warning'),
      ],
      commands: [
        command(
          'startPump',
          label('Start pump', '启泵', '啟泵'),
          [PUMP_NO(2)],
          60,
          'pump{pumpNo}Running',
        ),
        command(
          'stopPump',
          label('Stop pump', '停泵', '停泵'),
          [PUMP_NO(2)],
          60,
          'pump{pumpNo}Running',
        ),
        command(
          'setFrequency',
          label('Set frequency', '设定频率', '設定頻率'),
          [PUMP_NO(2), num('frequency', label('Frequency', '频率', '頻率'), 20, 50, 'Hz', 1)],
          30,
          'pump{pumpNo}Frequency',
        ),
      ],
    },
  },
  {
    serialNo: 'GATE-1',
    kind: 'sluice_gate',
    name: label('Sluice gate controller', '闸门控制器', '閘門控制器'),
    protocol: 'mqtt_json',
    description: 'Motorised gate with upstream and downstream level gauges',
    thingModel: {
      reportIntervalSeconds: 60,
      properties: [
        measure('gateOpening', 'gateOpening', undefined, { max: 3 }),
        {
          key: 'gateState',
          name: label('Gate motion', '闸门动作', '閘門動作'),
          type: 'enum',
          options: [
            { value: 0, label: label('Stopped', '停止', '停止') },
            { value: 1, label: label('Opening', '开启中', '開啟中') },
            { value: 2, label: label('Closing', '关闭中', '關閉中') },
          ],
          access: 'r',
        } as ThingProperty,
        measure('upstreamLevel', 'waterLevel', label('Upstream level', '闸前水位', '閘前水位'), {
          min: 0,
          max: 10,
        }),
        measure(
          'downstreamLevel',
          'waterLevel',
          label('Downstream level', '闸后水位', '閘後水位'),
          { min: 0, max: 10 },
        ),
        measure('flow', 'canalFlow', undefined, { max: 50 }),
        measure('motorCurrent', 'current', label('Motor current', '电机电流', '電機電流'), {
          max: 50,
        }),
        ...POWER_AND_SIGNAL,
      ],
      events: [
        event('limitReached', label('Limit switch', '限位到达', '限位到達'), 'info'),
        event('motorOverload', label('Motor overload', '电机过载', '電機過載'), 'fault'),
        TAMPER,
      ],
      commands: [
        command(
          'setGateOpening',
          label('Set opening', '设定开度', '設定開度'),
          [num('opening', label('Opening', '开度', '開度'), 0, 3, 'm', 2)],
          300,
          'gateOpening',
        ),
        command('openGate', label('Open', '开闸', '開閘'), [], 300, 'gateState'),
        command('closeGate', label('Close', '关闸', '關閘'), [], 300, 'gateState'),
        command('stopGate', label('Stop', '停止', '停止'), [], 30, 'gateState'),
      ],
    },
  },
  {
    serialNo: 'FERT-4CH',
    kind: 'water_fertilizer',
    name: label('Fertigation machine', '水肥一体机', '水肥一體機'),
    protocol: 'mqtt_json',
    description: 'Fertilizer channels A, B, C and acid mixing into the irrigation water',
    thingModel: {
      reportIntervalSeconds: 60,
      properties: [
        running('running', label('Program running', '程序运行', '程式運行')),
        measure('ec', 'waterEc', label('EC', '电导率', '電導率'), { max: 10 }),
        measure('ph', 'waterPh', label('pH', '酸碱度', '酸鹼度'), { min: 3, max: 10 }),
        measure('mainFlow', 'flow', label('Main flow', '主管流量', '主管流量'), { max: 100 }),
        measure('mainPressure', 'pressure', label('Main pressure', '主管压力', '主管壓力'), {
          max: 1,
        }),
        ...fertChannel('A', 'Channel A', 'A通道'),
        ...fertChannel('B', 'Channel B', 'B通道'),
        ...fertChannel('C', 'Channel C', 'C通道'),
        ...fertChannel('Acid', 'Acid', '酸液'),
      ],
      events: [
        event('tankLow', label('Tank low', '肥料罐液位低', '肥料罐液位低'), 'warning', [
          text('tank', label('Tank', '肥料罐', '肥料罐')),
        ]),
        event('ecOutOfRange', label('EC off target', 'EC偏离目标', 'EC偏離目標'), 'warning'),
        event('programDone', label('Program finished', '程序完成', '程式完成'), 'info', [
          int('group', label('Valve group', '轮灌组', '輪灌組'), 1, 16),
        ]),
      ],
      commands: [
        command(
          'startProgram',
          label('Start program', '启动程序', '啟動程式'),
          [
            int('group', label('Valve group', '轮灌组', '輪灌組'), 1, 16),
            int('waterBeforeMinutes', label('Water before', '前清水', '前清水'), 0, 240, 'min'),
            int('fertilizerMinutes', label('Fertilizer', '施肥时长', '施肥時長'), 0, 240, 'min'),
            int('waterAfterMinutes', label('Water after', '后清水', '後清水'), 0, 240, 'min'),
          ],
          60,
          'running',
        ),
        command('stopProgram', label('Stop program', '停止程序', '停止程式'), [], 30, 'running'),
        command('setRecipe', label('Set recipe', '设定配方', '設定配方'), [
          num('targetEc', label('Target EC', '目标EC', '目標EC'), 0, 10, 'mS/cm', 2),
          num('targetPh', label('Target pH', '目标pH', '目標pH'), 4, 9, 'pH', 2),
        ]),
      ],
    },
  },
  {
    serialNo: 'WEATHER-8',
    kind: 'weather_station',
    name: label('Automatic weather station', '自动气象站', '自動氣象站'),
    protocol: 'mqtt_json',
    description: 'Eight-element station: temperature, humidity, pressure, wind, rain, radiation',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        measure('airTemperature', 'airTemperature'),
        measure('airHumidity', 'airHumidity'),
        measure('airPressure', 'airPressure'),
        measure('windSpeed', 'windSpeed'),
        measure('windDirection', 'windDirection'),
        measure('rainfall', 'rainfall', label('Rainfall (interval)', '时段降雨量', '時段降雨量')),
        measure('solarRadiation', 'solarRadiation'),
        // Bright sunshine since the previous reading (a day's sum is its sunshine duration, the
        // n of FAO-56 ET0 where no pyranometer is fitted).
        {
          key: 'sunshineHours',
          name: label('Sunshine (interval)', '时段日照时数', '時段日照時數'),
          type: 'number',
          unit: 'h',
          min: 0,
          max: 24,
          precision: 2,
          access: 'r',
        } as ThingProperty,
        measure('soilTemperature', 'soilTemperature'),
        measure('evapotranspiration', 'evapotranspiration'),
        ...POWER_AND_SIGNAL,
      ],
      events: [
        LOW_BATTERY,
        event('sensorFault', label('Sensor fault', '传感器故障', '傳感器故障'), 'fault', [
          text('sensor', label('Sensor', '传感器', '傳感器')),
        ]),
      ],
      commands: [],
    },
  },
  {
    serialNo: 'FLOOD-RTU',
    kind: 'flood_station',
    name: label('Rain and water level station', '雨量水位站', '雨量水位站'),
    protocol: 'sl651',
    description: 'SL 651 RTU with tipping-bucket rain gauge and radar level gauge',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        measure('rainfall', 'rainfall', label('Rainfall (5 min)', '5分钟雨量', '5分鐘雨量'), {
          max: 100,
        }),
        // The gauge's own counter (SL 651 element 0x26), counting up until it resets.
        measure(
          'rainfallTotal',
          'cumulativeRainfall',
          label('Rainfall (cumulative)', '累计雨量', '累計雨量'),
          { max: 100_000 },
        ),
        // Rolling sums the server computes from the stored rain (modules/monitor/flood): never
        // reported, declared so every screen and alarm notice names them.
        ...ROLLING_RAIN,
        measure('waterLevel', 'waterLevel'),
        ...POWER_AND_SIGNAL,
      ],
      events: [
        LOW_BATTERY,
        event('heavyRain', label('Heavy rain', '强降雨', '強降雨'), 'warning', [
          num('rainfall1h', label('Rainfall 1 h', '1小时雨量', '1小時雨量'), 0, 300, 'mm', 1),
        ]),
      ],
      commands: [],
    },
  },
  {
    serialNo: 'SOIL-4D',
    kind: 'soil_moisture',
    name: label('Soil moisture station (4 depths)', '墒情站(四层)', '墒情站(四層)'),
    protocol: 'mqtt_json',
    description: 'Moisture and temperature at 10, 20, 40 and 60 cm, EC at 20 cm',
    thingModel: {
      reportIntervalSeconds: 600,
      properties: [
        ...soilDepth(10),
        ...soilDepth(20),
        ...soilDepth(40),
        ...soilDepth(60),
        measure('soilEc20', 'soilEc', label('EC 20 cm', '20cm电导率', '20cm電導率'), { max: 5 }),
        ...POWER_AND_SIGNAL,
      ],
      events: [LOW_BATTERY],
      commands: [],
    },
  },
  {
    serialNo: 'SEDIMENT-1',
    kind: 'sediment_station',
    name: label('Runoff plot station', '径流小区监测站', '徑流小區監測站'),
    protocol: 'mqtt_json',
    description:
      "Runoff plot: the plot's own tipping-bucket rain gauge, the flume's head and flow, sediment concentration and turbidity of the runoff",
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        // The tipping-bucket gauge beside the plot: rain since the previous reading.
        measure('rainfall', 'rainfall', label('Rainfall (5 min)', '5分钟雨量', '5分鐘雨量'), {
          max: 100,
        }),
        // A plot sheds litres a second, not a canal's cubic metres.
        measure('flow', 'canalFlow', label('Runoff flow', '径流流量', '徑流流量'), {
          unit: 'L/s',
          max: 100,
          precision: 4,
        }),
        measure('sedimentConcentration', 'sedimentConcentration', undefined, { max: 100 }),
        measure('sedimentDischarge', 'sedimentDischarge', undefined, {
          unit: 'g/s',
          max: 10_000,
          precision: 4,
        }),
        measure('turbidity', 'turbidity'),
        measure('waterLevel', 'waterLevel', label('Flume head', '量水堰水头', '量水堰水頭'), {
          min: 0,
          max: 2,
        }),
        ...POWER_AND_SIGNAL,
      ],
      events: [LOW_BATTERY, TAMPER],
      commands: [],
    },
  },
  {
    serialNo: 'SILT-1',
    kind: 'silt_station',
    name: label('Canal silt station', '渠道淤积监测站', '渠道淤積監測站'),
    protocol: 'mqtt_json',
    description: 'Silt depth against the dredging threshold, level, velocity and turbidity',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        measure('siltDepth', 'siltDepth', undefined, { max: 3 }),
        measure('waterLevel', 'waterLevel', undefined, { min: 0, max: 10 }),
        measure('velocity', 'velocity', undefined, { max: 5 }),
        measure('sedimentConcentration', 'sedimentConcentration', undefined, { max: 100 }),
        measure('turbidity', 'turbidity'),
        ...POWER_AND_SIGNAL,
      ],
      events: [LOW_BATTERY],
      commands: [],
    },
  },
  {
    serialNo: 'BAYONET-1',
    kind: 'bayonet_station',
    name: label('Watershed outlet station', '卡口站', '卡口站'),
    protocol: 'szy206',
    // The station gauges level and samples sediment; flow and sediment discharge are the
    // server's, from the station's rating curve (areas/bayonet.ts derived factors).
    description: 'Level gauge and sediment sampler of a small-watershed outlet section',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        measure('waterLevel', 'waterLevel', undefined, { min: 0, max: 20 }),
        measure('sedimentConcentration', 'sedimentConcentration', undefined, { max: 200 }),
        ...POWER_AND_SIGNAL,
      ],
      events: [LOW_BATTERY, TAMPER],
      commands: [],
    },
  },
  {
    serialNo: 'INSECT-LAMP',
    kind: 'insect_trap',
    name: label('Insect trap lamp', '虫情测报灯', '蟲情測報燈'),
    protocol: 'mqtt_json',
    description: 'Light trap that photographs its catch; lamp on at night',
    thingModel: {
      reportIntervalSeconds: 600,
      properties: [
        running('lampOn', label('Lamp', '诱虫灯', '誘蟲燈'), 'rw'),
        measure('insectCount', 'insectCount', label('Catch today', '今日虫口', '今日蟲口'), {
          type: 'integer',
          max: 10_000,
        }),
        // What the trap caught since it was installed (its counter never restarts).
        measure('totalCount', 'insectCount', label('Catch in all', '累计虫口', '累計蟲口'), {
          type: 'integer',
          max: 100_000,
        }),
        measure('airTemperature', 'airTemperature'),
        measure('airHumidity', 'airHumidity'),
        ...POWER_AND_SIGNAL,
      ],
      events: [
        event('photoTaken', label('Photo taken', '已拍照', '已拍照'), 'info', [
          text('image', label('Image', '图片', '圖片')),
        ]),
        event('rainShield', label('Rain shield closed', '防雨罩关闭', '防雨罩關閉'), 'info'),
      ],
      commands: [
        command('takePhoto', label('Take photo', '拍照', '拍照'), [], 60),
        command('setLamp', label('Switch lamp', '开关灯', '開關燈'), [
          { key: 'on', name: label('On', '开', '開'), type: 'boolean' } as ThingParam,
        ]),
      ],
    },
  },
  {
    serialNo: 'CAM-PTZ',
    kind: 'camera',
    name: label('PTZ camera', '云台摄像机', '雲台攝影機'),
    protocol: 'mqtt_json',
    description: 'Network camera with presets; snapshots go to the device images',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        running('recording', label('Recording', '录像中', '錄影中')),
        {
          key: 'storageFree',
          name: label('Storage free', '存储剩余', '儲存剩餘'),
          type: 'number',
          unit: '%',
          min: 0,
          max: 100,
          precision: 0,
          access: 'r',
        } as ThingProperty,
        measure('signalStrength', 'signalStrength'),
      ],
      events: [
        event('motionDetected', label('Motion detected', '移动侦测', '移動偵測'), 'info'),
        event('videoLoss', label('Video loss', '视频丢失', '視訊遺失'), 'fault'),
      ],
      commands: [
        command('snapshot', label('Snapshot', '抓拍', '抓拍'), [], 60),
        command('gotoPreset', label('Go to preset', '转到预置位', '轉到預置位'), [
          int('preset', label('Preset', '预置位', '預置位'), 1, 255),
        ]),
      ],
    },
  },
  {
    serialNo: 'LED-P10',
    kind: 'led_screen',
    name: label('Outdoor LED screen', '户外LED显示屏', '戶外LED顯示屏'),
    protocol: 'mqtt_json',
    description: 'P10 full-colour screen, 192 × 96 pixels',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        running('powerOn', label('Power', '电源', '電源'), 'rw'),
        measure('brightness', 'brightness', undefined, {
          type: 'integer',
          access: 'rw',
        } as Overrides),
        {
          key: 'program',
          name: label('Current program', '当前节目', '當前節目'),
          type: 'string',
          access: 'r',
        } as ThingProperty,
        // The screen's resolution: a program larger than it is refused.
        {
          ...int('width', label('Width', '宽度', '寬度'), 16, 1024, 'px'),
          access: 'r',
        } as ThingProperty,
        {
          ...int('height', label('Height', '高度', '高度'), 8, 512, 'px'),
          access: 'r',
        } as ThingProperty,
        measure('signalStrength', 'signalStrength'),
      ],
      events: [event('pixelFault', label('Module fault', '模组故障', '模組故障'), 'fault', [CODE])],
      commands: [
        command(
          'setProgram',
          label('Set program', '下发节目', '下發節目'),
          [
            text('programId', label('Program', '节目', '節目')),
            // The program's pages (LedProgramPayload as JSON: led-program-content.ts).
            { ...text('content', label('Content', '内容', '內容')), maxLength: 30_000 },
          ],
          120,
        ),
        // The server's own: the live values of the program showing, as readings arrive.
        command(
          'updateValues',
          label('Update live values', '更新实时数值', '更新即時數值'),
          [{ ...text('values', label('Values', '数值', '數值')), maxLength: 4000 }],
          30,
        ),
      ],
    },
  },
  {
    serialNo: 'CARD-WELL',
    kind: 'card_controller',
    name: label('Well card-swipe controller', '机井刷卡控制器', '機井刷卡控制器'),
    protocol: 'mqtt_json',
    description: 'IC-card controller of a well pump metering water and electricity',
    thingModel: {
      reportIntervalSeconds: 300,
      properties: [
        running('pumpRunning', label('Pump running', '水泵运行', '水泵運行')),
        {
          key: 'cardNo',
          name: label('Card', '当前卡号', '當前卡號'),
          type: 'string',
          access: 'r',
        } as ThingProperty,
        measure('flow', 'flow', undefined, { max: 200 }),
        measure('cumulativeVolume', 'cumulativeVolume'),
        measure('energy', 'energy'),
        measure('voltage', 'voltage', undefined, { max: 500 }),
        measure('current', 'current', undefined, { max: 100 }),
        measure('signalStrength', 'signalStrength'),
      ],
      events: [
        event('invalidCard', label('Invalid card', '无效卡', '無效卡'), 'warning', [
          text('cardNo', label('Card', '卡号', '卡號')),
        ]),
        event('lowBalance', label('Low balance', '余额不足', '餘額不足'), 'info', [
          text('cardNo', label('Card', '卡号', '卡號')),
        ]),
        TAMPER,
        // A card's session with the server (billing/card-controller.ts, docs/card-billing.md).
        ...CARD_CONTROLLER_EVENTS,
      ],
      commands: [
        command('stopPump', label('Stop pump', '停泵', '停泵'), [], 60, 'pumpRunning'),
        command('lockController', label('Lock', '锁定', '鎖定'), [
          { key: 'locked', name: label('Locked', '锁定', '鎖定'), type: 'boolean' } as ThingParam,
        ]),
        ...CARD_CONTROLLER_COMMANDS,
      ],
    },
  },
];

/** The seeded product of a device kind. */
export function productOfKind(kind: DeviceKind): ProductSeed {
  return PRODUCTS.find((product) => product.kind === kind)!;
}
