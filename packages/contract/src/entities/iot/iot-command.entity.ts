import { defineEntity, f, label } from '../../entity-kit';
import { deviceKindField } from './device-kind-field';
import { DEVICE_TARGET } from './targets';

/** Where a command is in its life; only the command service moves it. */
export const COMMAND_STATUSES = [
  'pending',
  'sent',
  'succeeded',
  'failed',
  'timeout',
  'expired',
  'cancelled',
] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Statuses a command never leaves. */
export const FINAL_COMMAND_STATUSES: readonly CommandStatus[] = [
  'succeeded',
  'failed',
  'timeout',
  'expired',
  'cancelled',
];

/**
 * Every command sent to a device is an operation record (DESIGN §6): who, when, what, result and
 * latency. Written by the command service only, so the generic calls are read-only.
 */
export const iotCommandEntity = defineEntity({
  name: 'Command',
  title: label('Operation records', '操作记录', '操作紀錄'),
  table: 'iot_command',
  path: '/api/iot/command',
  route: '/iot/command',
  menuCode: 'iotCommand',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    username: f.text({
      label: label('Operator', '操作人', '操作人'),
      readOnly: true,
      search: 'eq',
      sortable: true,
    }),
    deviceId: f.ref({
      label: label('Device', '设备', '設備'),
      readOnly: true,
      target: DEVICE_TARGET,
      // Operation records outlive the device they controlled.
      onDelete: 'set-null',
    }),
    name: f.text({
      label: label('Command', '指令', '指令'),
      readOnly: true,
      search: 'eq',
      max: 64,
    }),
    /** The parameters as JSON text, exactly as sent. */
    params: f.text({
      label: label('Parameters', '参数', '參數'),
      readOnly: true,
      search: undefined,
      max: 8000,
    }),
    status: f.enumOf({
      label: label('Result', '结果', '結果'),
      readOnly: true,
      options: [
        { value: 'pending', label: label('Waiting for device', '等待设备', '等待設備') },
        { value: 'sent', label: label('Sent', '已下发', '已下發') },
        { value: 'succeeded', label: label('Succeeded', '成功', '成功') },
        { value: 'failed', label: label('Failed', '失败', '失敗') },
        { value: 'timeout', label: label('No answer', '超时', '逾時') },
        { value: 'expired', label: label('Expired', '已过期', '已過期') },
        { value: 'cancelled', label: label('Cancelled', '已取消', '已取消') },
      ],
    }),
    timeoutSeconds: f.int({
      label: label('Timeout (s)', '超时(秒)', '逾時(秒)'),
      readOnly: true,
      list: false,
      max: 3600,
    }),
    expiresAt: f.datetime({
      label: label('Expires', '过期时间', '過期時間'),
      readOnly: true,
      list: false,
    }),
    createdAt: f.datetime({
      label: label('Time', '时间', '時間'),
      readOnly: true,
      search: 'range',
    }),
    sentAt: f.datetime({ label: label('Sent at', '下发时间', '下發時間'), readOnly: true }),
    ackedAt: f.datetime({ label: label('Answered at', '应答时间', '應答時間'), readOnly: true }),
    latencyMs: f.int({
      label: label('Latency (ms)', '耗时(毫秒)', '耗時(毫秒)'),
      readOnly: true,
      max: 1_000_000_000,
      width: 110,
    }),
    result: f.text({
      label: label('Message', '消息', '訊息'),
      readOnly: true,
      search: undefined,
      max: 500,
    }),
    deviceKind: deviceKindField(),
  },
});
