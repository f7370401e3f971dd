import { defineEntity, f, label, type RefTarget } from '../../entity-kit';
import { deviceKindField } from './device-kind-field';
import { DEVICE_TARGET } from './targets';

const ALARM_RULE_TARGET: RefTarget = {
  table: 'iot_alarm_rule',
  labelColumn: 'rule_name',
  labelField: 'ruleName',
  queryCall: '/api/iot/alarm/queryAlarmRule',
};

export const ALARM_STATES = ['open', 'cleared'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

const VALUE = { min: -1e12, max: 1e12, precision: 6 } as const;

/**
 * Warning information: one alarm from the moment a rule's condition held until it cleared, and
 * who acknowledged it. Written by the alarm service only; acknowledged through its own call.
 */
export const alarmRecordEntity = defineEntity({
  name: 'AlarmRecord',
  title: label('Warning information', '告警信息', '告警資訊'),
  table: 'iot_alarm_record',
  path: '/api/iot/alarm',
  route: '/iot/alarmRecord',
  menuCode: 'alarmRecord',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'startedAt', order: 'descend' },
  fields: {
    ruleId: f.ref({
      label: label('Rule', '规则', '規則'),
      readOnly: true,
      target: ALARM_RULE_TARGET,
      // The history stays when a rule is deleted.
      onDelete: 'set-null',
    }),
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      readOnly: true,
      target: DEVICE_TARGET,
      onDelete: 'set-null',
    }),
    propertyKey: f.text({
      label: label('Property', '属性', '屬性'),
      readOnly: true,
      search: 'eq',
      max: 64,
    }),
    level: f.dict({
      label: label('Level', '级别', '級別'),
      readOnly: true,
      dictType: 'alarm_level',
    }),
    value: f.decimal({ label: label('Value', '数值', '數值'), readOnly: true, ...VALUE }),
    threshold: f.decimal({ label: label('Threshold', '阈值', '閾值'), readOnly: true, ...VALUE }),
    startedAt: f.datetime({
      label: label('Started', '开始时间', '開始時間'),
      readOnly: true,
      search: 'range',
    }),
    clearedAt: f.datetime({ label: label('Cleared', '结束时间', '結束時間'), readOnly: true }),
    state: f.enumOf({
      label: label('State', '状态', '狀態'),
      readOnly: true,
      options: [
        { value: 'open', label: label('Active', '告警中', '告警中') },
        { value: 'cleared', label: label('Cleared', '已恢复', '已恢復') },
      ],
    }),
    acknowledgedBy: f.text({
      label: label('Acknowledged by', '确认人', '確認人'),
      readOnly: true,
      search: undefined,
    }),
    acknowledgedAt: f.datetime({
      label: label('Acknowledged', '确认时间', '確認時間'),
      readOnly: true,
    }),
    ackComment: f.text({
      label: label('Comment', '确认说明', '確認說明'),
      readOnly: true,
      search: undefined,
      max: 500,
    }),
    /** Whether someone acknowledged it (the warning screens' filter). */
    acknowledged: f.bool({
      label: label('Acknowledged', '已确认', '已確認'),
      readOnly: true,
      list: false,
      export: false,
      search: 'eq',
      computed: 't.acknowledged_at IS NOT NULL',
    }),
    /** Part of the device's number or name, or of the property key (the warning screens' search). */
    text: f.text({
      label: label('Device or factor', '设备或因子', '設備或因子'),
      readOnly: true,
      list: false,
      export: false,
      search: 'like',
      max: 64,
      computed: `SELECT d.device_no || ' ' || coalesce(d.device_name, '') || ' ' || t.property_key
        FROM iot_device d WHERE d.id = t.device_id`,
    }),
    deviceKind: deviceKindField(),
  },
});
