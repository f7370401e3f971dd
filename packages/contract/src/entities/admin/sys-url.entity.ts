import { defineEntity, f, label } from '../../entity-kit';

/** API URL permissions: every route of the server is one, granted to roles. */
export const sysUrlEntity = defineEntity({
  name: 'SysUrl',
  title: label('URL permissions', 'URL权限', 'URL權限'),
  table: 'sys_url',
  path: '/api/admin/sysurl',
  route: '/authority/sysurl',
  menuCode: 'sysurl',
  scope: 'tenant',
  defaultSort: { field: 'url', order: 'ascend' },
  fields: {
    url: f.text({
      label: label('URL', 'URL', 'URL'),
      required: true,
      max: 255,
      unique: true,
      sortable: true,
      pattern: { source: '^/api/\\S*$', key: 'validation.apiUrl' },
    }),
    method: f.enumOf({
      label: label('Method', '请求方式', '請求方式'),
      required: true,
      defaultValue: 'GET',
      options: ['GET', 'POST', 'PUT', 'DELETE'].map((value) => ({
        value,
        label: label(value, value, value),
      })),
    }),
    description: f.text({ label: label('Description', '描述', '描述'), max: 255 }),
    generated: f.bool({
      label: label('From the server', '系统生成', '系統產生'),
      readOnly: true,
      defaultValue: false,
    }),
  },
});
