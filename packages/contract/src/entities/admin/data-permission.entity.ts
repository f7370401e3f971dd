import { defineEntity, f, label } from '../../entity-kit';

/** Per role and menu, the data fields the role may see (spec §6: fields as a comma list). */
export const dataPermissionEntity = defineEntity({
  name: 'DataPermission',
  title: label('Data permissions', '数据权限', '資料權限'),
  table: 'sys_data_permission',
  path: '/api/admin/sysdatapermission',
  route: '/authority/datapermission',
  menuCode: 'datapermission',
  scope: 'tenant',
  uniqueTogether: [['roleCode', 'menuCode']],
  fields: {
    roleCode: f.text({
      label: label('Role code', '角色编码', '角色編碼'),
      required: true,
      max: 64,
      search: 'eq',
      sortable: true,
    }),
    menuCode: f.text({
      label: label('Menu code', '菜单编码', '選單編碼'),
      required: true,
      max: 64,
      search: 'eq',
      sortable: true,
    }),
    dataFields: f.text({
      label: label('Visible fields', '可见字段', '可見欄位'),
      required: true,
      max: 2000,
      pattern: {
        source: '^\\s*[A-Za-z][\\w]*(\\s*,\\s*[A-Za-z][\\w]*)*\\s*$',
        key: 'validation.fieldList',
      },
    }),
    description: f.text({ label: label('Description', '描述', '描述'), max: 255 }),
  },
});
