import { defineEntity, f, label } from '../../entity-kit';

/** Tenant parameters: named settings read by the services (spec §3 Parameter). */
export const sysParamEntity = defineEntity({
  name: 'SysParam',
  title: label('Parameters', '参数管理', '參數管理'),
  table: 'sys_param',
  path: '/api/admin/sysparam',
  route: '/admin/sysparam',
  menuCode: 'sysparam',
  scope: 'tenant',
  defaultSort: { field: 'paramKey', order: 'ascend' },
  fields: {
    paramName: f.text({
      label: label('Parameter name', '参数名称', '參數名稱'),
      required: true,
      max: 64,
    }),
    paramKey: f.text({
      label: label('Parameter key', '参数键', '參數鍵'),
      required: true,
      max: 128,
      unique: true,
      sortable: true,
      pattern: { source: '^[A-Za-z][\\w.-]*$', key: 'validation.paramKey' },
    }),
    paramValue: f.textarea({ label: label('Value', '参数值', '參數值'), max: 4000, list: true }),
  },
});
