import { defineEntity, f, label, type Label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import { BILLING_PATH } from './billing-targets';

/** The console route of the controllers' records (spec §2 /skgg/record). */
export const CONTROLLER_RECORD_SCREEN = '/skgg/record';

const STATUS_LABELS: Record<string, Label> = {
  posted: label('Posted', '已入账', '已入帳'),
  duplicate: label('Duplicate', '重复上报', '重複上報'),
  conflict: label('Conflict', '记录冲突', '記錄衝突'),
  refused: label('Refused', '已拒绝', '已拒絕'),
};

/**
 * Every upload of a controller's session record as it came (migration 022): its key (controller
 * and record number) and what became of it: posted once, a duplicate of a record already posted,
 * a conflict (the same key saying another amount or card: refused and raised as an alarm), or
 * refused (a record the server could not post, the reason given). Written by the server only;
 * listed, filtered and exported by the entity kit.
 */
export const controllerRecordEntity = defineEntity({
  name: 'ControllerRecord',
  title: label('Swipe records', '刷卡记录', '刷卡記錄'),
  table: 'billing_controller_record',
  path: `${BILLING_PATH}/record`,
  route: CONTROLLER_RECORD_SCREEN,
  menuCode: 'record',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'receivedAt', order: 'descend' },
  fields: {
    receivedAt: f.datetime({
      label: label('Received', '接收时间', '接收時間'),
      readOnly: true,
      search: 'range',
      width: 170,
    }),
    deviceId: f.ref({
      label: label('Well controller', '机井控制器', '機井控制器'),
      readOnly: true,
      target: DEVICE_TARGET,
      onDelete: 'set-null',
    }),
    recordNo: f.int({
      label: label('Record number', '记录号', '記錄號'),
      readOnly: true,
      min: 1,
      max: 2_147_483_647,
      search: 'eq',
    }),
    cardNo: f.text({
      label: label('Card number', '卡号', '卡號'),
      readOnly: true,
      max: 64,
      search: 'like',
    }),
    sessionNo: f.text({
      label: label('Session', '会话', '會話'),
      computed: 't.session_id::text',
      readOnly: true,
      search: undefined,
    }),
    amountYuan: f.money({
      label: label('Amount (yuan)', '金额(元)', '金額(元)'),
      column: 'amount_fen',
      width: 110,
    }),
    // Not "status": that name is the kit's enable switch.
    outcome: f.enumOf({
      label: label('Outcome', '处理结果', '處理結果'),
      column: 'status',
      readOnly: true,
      options: Object.entries(STATUS_LABELS).map(([value, text]) => ({ value, label: text })),
      width: 100,
    }),
    message: f.text({
      label: label('Reason', '原因', '原因'),
      readOnly: true,
      max: 200,
      search: undefined,
    }),
  },
});
