import { defineEntity, f, label } from '../../entity-kit';
import { ROLE_BUTTON_GRANTS, ROLE_MENU_GRANTS, ROLE_URL_GRANTS } from './targets';

export const ROLE_CODE_PATTERN = { source: '^[A-Z][A-Z0-9_]*$', key: 'validation.roleCode' };

/** Granted through the role authorisation calls, never through the role form. */
const grant = { form: false, list: false, export: false } as const;

/** Roles of a tenant: what menus, buttons, URLs and data fields its holders get. */
export const sysRoleEntity = defineEntity({
  name: 'SysRole',
  title: label('Roles', '角色管理', '角色管理'),
  table: 'sys_role',
  path: '/api/admin/sysrole',
  route: '/authority/sysrole',
  menuCode: 'sysrole',
  scope: 'tenant',
  fields: {
    roleCode: f.text({
      label: label('Role code', '角色编码', '角色編碼'),
      required: true,
      min: 2,
      max: 64,
      unique: true,
      sortable: true,
      pattern: ROLE_CODE_PATTERN,
    }),
    roleName: f.text({
      label: label('Role name', '角色名称', '角色名稱'),
      required: true,
      max: 64,
      sortable: true,
    }),
    roleDescription: f.textarea({
      label: label('Description', '描述', '描述'),
      max: 500,
      list: true,
    }),
    status: f.status(),
    menuIds: f.refs({ label: label('Menus', '菜单', '選單'), target: ROLE_MENU_GRANTS, ...grant }),
    buttonIds: f.refs({
      label: label('Buttons', '按钮', '按鈕'),
      target: ROLE_BUTTON_GRANTS,
      ...grant,
    }),
    urlIds: f.refs({ label: label('URLs', 'URL', 'URL'), target: ROLE_URL_GRANTS, ...grant }),
  },
});
