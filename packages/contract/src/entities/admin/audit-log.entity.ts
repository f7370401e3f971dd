import { defineEntity, f, label } from '../../entity-kit';

const readOnly = { add: false, update: false, delete: false, status: false, export: true } as const;

/** Every change made through the API: who, what, when, from where, and the result. */
export const operationLogEntity = defineEntity({
  name: 'OperationLog',
  title: label('Operation log', '操作日志', '操作日誌'),
  table: 'operation_log',
  path: '/api/admin/operationlog',
  route: '/admin/operationlog',
  menuCode: 'operationlog',
  scope: 'tenant',
  operations: readOnly,
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    username: f.text({
      label: label('User', '用户', '使用者'),
      readOnly: true,
      search: 'eq',
      sortable: true,
    }),
    action: f.text({ label: label('Action', '操作', '操作'), readOnly: true, search: 'like' }),
    method: f.text({
      label: label('Method', '请求方式', '請求方式'),
      readOnly: true,
      search: 'eq',
      width: 90,
    }),
    url: f.text({ label: label('URL', 'URL', 'URL'), readOnly: true, search: 'like' }),
    target: f.text({ label: label('Target', '对象', '對象'), readOnly: true, search: 'like' }),
    ip: f.text({ label: label('IP address', 'IP地址', 'IP位址'), readOnly: true, search: 'eq' }),
    result: f.enumOf({
      label: label('Result', '结果', '結果'),
      readOnly: true,
      options: [
        { value: 'success', label: label('Success', '成功', '成功') },
        { value: 'failure', label: label('Failure', '失败', '失敗') },
      ],
    }),
    status: f.int({
      label: label('HTTP status', 'HTTP状态', 'HTTP狀態'),
      readOnly: true,
      max: 999,
      width: 90,
    }),
    message: f.text({
      label: label('Message', '消息', '訊息'),
      readOnly: true,
      search: undefined,
      max: 1000,
    }),
    durationMs: f.int({
      label: label('Duration (ms)', '耗时(毫秒)', '耗時(毫秒)'),
      readOnly: true,
      width: 110,
    }),
    createdAt: f.datetime({
      label: label('Time', '时间', '時間'),
      readOnly: true,
      search: 'range',
    }),
  },
});

/** Every sign-in attempt that named a tenant: success or why it failed. */
export const loginLogEntity = defineEntity({
  name: 'LoginLog',
  title: label('Login log', '登录日志', '登入日誌'),
  table: 'login_log',
  path: '/api/admin/loginlog',
  route: '/admin/loginlog',
  menuCode: 'loginlog',
  scope: 'tenant',
  operations: readOnly,
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    username: f.text({
      label: label('User', '用户', '使用者'),
      readOnly: true,
      search: 'eq',
      sortable: true,
    }),
    grantType: f.text({
      label: label('Sign-in type', '登录方式', '登入方式'),
      readOnly: true,
      search: 'eq',
    }),
    ip: f.text({ label: label('IP address', 'IP地址', 'IP位址'), readOnly: true, search: 'eq' }),
    userAgent: f.text({
      label: label('Browser', '浏览器', '瀏覽器'),
      readOnly: true,
      search: undefined,
      max: 512,
    }),
    result: f.enumOf({
      label: label('Result', '结果', '結果'),
      readOnly: true,
      options: [
        { value: 'success', label: label('Success', '成功', '成功') },
        { value: 'failure', label: label('Failure', '失败', '失敗') },
      ],
    }),
    message: f.text({ label: label('Message', '消息', '訊息'), readOnly: true, search: undefined }),
    createdAt: f.datetime({
      label: label('Time', '时间', '時間'),
      readOnly: true,
      search: 'range',
    }),
  },
});
