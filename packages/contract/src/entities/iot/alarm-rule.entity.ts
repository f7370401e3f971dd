import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET, PRODUCT_TARGET, THING_KEY } from './targets';

/** How a rule watches one property: past a threshold, its rate of change, or its silence. */
export const ALARM_KINDS = ['above', 'below', 'outside', 'rateOfChange', 'noData'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

export { ALARM_LEVELS, type AlarmLevel } from './alarm-levels';

/** The threshold fields each kind needs (the server requires them; the form shows only them). */
export const ALARM_KIND_FIELDS: Record<AlarmKind, readonly string[]> = {
  above: ['high'],
  below: ['low'],
  outside: ['low', 'high'],
  rateOfChange: ['ratePerMinute'],
  noData: ['noDataMinutes'],
};

/** Every threshold field; hysteresis applies to all kinds but noData (silence has no band). */
export const ALARM_THRESHOLD_FIELDS = [
  'low',
  'high',
  'ratePerMinute',
  'noDataMinutes',
  'hysteresis',
];

const THRESHOLD = { min: -1e9, max: 1e9, precision: 6 } as const;
/** Rates and bands: non-negative, and small enough that 6 decimals still fit a double. */
const DELTA = { min: 0, max: 1e6, precision: 6 } as const;

/**
 * An alarm rule on one property of every device of a product, or of one device (a device's own
 * rule and its product's rule both apply). Evaluated on every stored reading; noData by a timer.
 */
export const alarmRuleEntity = defineEntity({
  name: 'AlarmRule',
  title: label('Alarm rules', '告警规则', '告警規則'),
  table: 'iot_alarm_rule',
  path: '/api/iot/alarm',
  route: '/iot/alarmRule',
  menuCode: 'alarmRule',
  scope: 'tenant',
  fields: {
    ruleName: f.text({
      label: label('Rule', '规则名称', '規則名稱'),
      required: true,
      max: 100,
      sortable: true,
    }),
    productId: f.ref({ label: label('Product', '产品', '產品'), target: PRODUCT_TARGET }),
    deviceId: f.ref({ label: label('Device', '设备', '設備'), target: DEVICE_TARGET }),
    propertyKey: f.text({
      label: label('Property', '属性', '屬性'),
      required: true,
      max: 64,
      pattern: THING_KEY,
      search: 'eq',
    }),
    kind: f.enumOf({
      label: label('Condition', '条件', '條件'),
      required: true,
      options: [
        { value: 'above', label: label('Above high', '高于上限', '高於上限') },
        { value: 'below', label: label('Below low', '低于下限', '低於下限') },
        { value: 'outside', label: label('Outside low–high', '超出范围', '超出範圍') },
        { value: 'rateOfChange', label: label('Changes too fast', '变化过快', '變化過快') },
        { value: 'noData', label: label('No data', '无数据', '無資料') },
      ],
    }),
    low: f.decimal({ label: label('Low', '下限', '下限'), ...THRESHOLD }),
    high: f.decimal({ label: label('High', '上限', '上限'), ...THRESHOLD }),
    ratePerMinute: f.decimal({
      label: label('Rate per minute', '每分钟变化', '每分鐘變化'),
      list: false,
      ...DELTA,
    }),
    noDataMinutes: f.int({
      label: label('No data (min)', '无数据(分钟)', '無資料(分鐘)'),
      list: false,
      min: 1,
      max: 10_080,
    }),
    hysteresis: f.decimal({
      label: label('Hysteresis', '回差', '回差'),
      list: false,
      ...DELTA,
    }),
    level: f.dict({
      label: label('Level', '级别', '級別'),
      required: true,
      dictType: 'alarm_level',
    }),
    status: f.status(),
  },
});
