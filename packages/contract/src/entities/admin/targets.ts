import type { LinkTarget, RefTarget } from '../../entity-kit';
import { PROJECT_TARGET } from '../iot/targets';

/** What admin fields refer to; kept apart from the entities so they never import each other. */
export const ORG_TARGET: RefTarget = {
  table: 'sys_org',
  labelColumn: 'org_name',
  labelField: 'orgName',
  queryCall: '/api/admin/sysorg/querySysOrg',
  treeCall: '/api/admin/sysorg/querySysOrgTree',
};

export const ROLE_TARGETS: LinkTarget = {
  table: 'sys_role',
  labelColumn: 'role_name',
  labelField: 'roleName',
  queryCall: '/api/admin/sysrole/querySysRole',
  linkTable: 'sys_user_role',
  fromColumn: 'user_id',
  toColumn: 'role_id',
};

export const USER_TARGET: RefTarget = {
  table: 'sys_user',
  labelColumn: 'nickname',
  labelField: 'nickname',
  queryCall: '/api/admin/sysuser/querySysUser',
};

export const POST_TARGET: RefTarget = {
  table: 'sys_post',
  labelColumn: 'post_name',
  labelField: 'postName',
  queryCall: '/api/admin/syspost/querySysPost',
  treeCall: '/api/admin/syspost/querySysPostTree',
};

export const MENU_TARGET: RefTarget = {
  table: 'sys_menu',
  labelColumn: 'menu_name',
  labelField: 'menuName',
  queryCall: '/api/admin/sysmenu/querySysMenu',
  treeCall: '/api/admin/sysmenu/querySysMenuTree',
};

export const ZONE_TARGET: RefTarget = {
  table: 'sys_zone',
  labelColumn: 'zone_name',
  labelField: 'zoneName',
  queryCall: '/api/admin/syszone/queryZone',
  treeCall: '/api/admin/syszone/queryZoneTree',
};

export const DICT_TARGET: RefTarget = {
  table: 'sys_dict',
  labelColumn: 'dict_name',
  labelField: 'dictName',
  queryCall: '/api/admin/sysdict/querySysDict',
  treeCall: '/api/admin/sysdict/querySysDictTree',
};

/** Grants of a role, each kept in its link table; written by the authority calls, not the form. */
export const ROLE_MENU_GRANTS: LinkTarget = {
  ...MENU_TARGET,
  linkTable: 'sys_role_menu',
  fromColumn: 'role_id',
  toColumn: 'menu_id',
};

export const ROLE_BUTTON_GRANTS: LinkTarget = {
  table: 'sys_menu_button',
  labelColumn: 'button_name',
  labelField: 'buttonName',
  queryCall: '/api/admin/sysmenu/querySysMenuButton',
  linkTable: 'sys_role_menu_button',
  fromColumn: 'role_id',
  toColumn: 'button_id',
};

export const ROLE_URL_GRANTS: LinkTarget = {
  table: 'sys_url',
  labelColumn: 'url',
  labelField: 'url',
  queryCall: '/api/admin/sysurl/querySysUrl',
  linkTable: 'sys_role_url',
  fromColumn: 'role_id',
  toColumn: 'url_id',
};

export const USER_ZONES: LinkTarget = {
  ...ZONE_TARGET,
  linkTable: 'sys_user_zone',
  fromColumn: 'user_id',
  toColumn: 'zone_id',
};

/**
 * The IoT projects a user works on (spec §7 bindUserProject): like zones, a user bound to
 * projects sees only those projects' devices; none bound, the whole tenant.
 */
export const USER_PROJECTS: LinkTarget = {
  ...PROJECT_TARGET,
  linkTable: 'sys_user_project',
  fromColumn: 'user_id',
  toColumn: 'project_id',
};
