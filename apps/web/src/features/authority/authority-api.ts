import type { MenuButtonNode, OrgUserNode, PageResult } from '@shuili/contract';
import { http } from '../../lib/http';
import type { UrlRow } from './url-grants';

/** A data permission rule: the fields a role may see on a menu's screen. */
export interface DataPermissionRule {
  id: string;
  roleCode: string;
  menuCode: string;
  /** Field names joined by commas. */
  dataFields: string;
}

/** A field of a screen that data permissions may hide. */
export interface DataField {
  field: string;
  label: string;
}

/** The role whose grants are edited. */
export interface RoleRef {
  id: string;
  roleCode: string;
  roleName?: string;
}

/** URLs are few hundred at most: one page holds them all. */
const ALL_URLS = 10_000;
/** One rule per menu: a role has at most as many rules as there are menus. */
const ALL_RULES = 1_000;

/** Spec §6/§7 authority calls: what a role may open, press, call and see, and who holds it. */
export const authorityApi = {
  menuButtonTree: (signal?: AbortSignal) =>
    http.get<MenuButtonNode[]>('/api/admin/sysmenu/querySysMenuButtonTree', { signal }),

  roleMenuIds: (roleId: string, signal?: AbortSignal) =>
    http.get<string[]>('/api/admin/sysmenu/queryMenuIdByRoleId', { params: { roleId }, signal }),

  authorizeMenus: (roleId: string, menuIds: string[]) =>
    http.post<null>('/api/admin/sysmenu/authorizeMenuToRole', { data: { roleId, menuIds } }),

  roleButtonIds: (roleCode: string, signal?: AbortSignal) =>
    http.get<string[]>('/api/admin/sysmenu/queryMenuButtonByRoleCode', {
      params: { roleCode },
      signal,
    }),

  authorizeButtons: (roleId: string, buttonIds: string[]) =>
    http.post<null>('/api/admin/sysmenu/authorizeMenuButtonToRole', {
      data: { roleId, buttonIds },
    }),

  urls: (signal?: AbortSignal) =>
    http.get<PageResult<UrlRow>>('/api/admin/sysurl/querySysUrl', {
      params: { currentPage: 1, pageSize: ALL_URLS, sort: 'url', order: 'ascend' },
      signal,
    }),

  roleUrlIds: (roleId: string, signal?: AbortSignal) =>
    http.get<string[]>('/api/admin/sysurl/queryUrlIdByRoleId', { params: { roleId }, signal }),

  authorizeUrls: (roleId: string, urlIds: string[]) =>
    http.post<null>('/api/admin/sysurl/authorizeUrlToRole', { data: { roleId, urlIds } }),

  dataFields: (menuCode: string, signal?: AbortSignal) =>
    http.get<DataField[]>('/api/admin/sysmenu/queryDataFieldByMenuCode', {
      params: { menuCode },
      signal,
    }),

  dataRules: (roleCode: string, signal?: AbortSignal) =>
    http.get<PageResult<DataPermissionRule>>('/api/admin/sysdatapermission/queryDataPermission', {
      params: { roleCode, currentPage: 1, pageSize: ALL_RULES },
      signal,
    }),

  authorizeDataFields: (roleCode: string, menuCode: string, dataFields: string[]) =>
    http.post<null>('/api/admin/sysmenu/authorizeMenuDataToRole', {
      data: { roleCode, menuCode, dataFields: dataFields.join(',') },
    }),

  deleteDataRule: (id: string) =>
    http.post<null>('/api/admin/sysmenu/deleteDataField', { params: { id } }),

  orgUserTree: (roleId: string, signal?: AbortSignal) =>
    http.get<OrgUserNode[]>('/api/admin/sysorg/queryOrgUserTree', { params: { roleId }, signal }),

  authorizeUsers: (roleId: string, userIds: string[]) =>
    http.post<null>('/api/admin/sysrole/authorizeUserToRole', { data: { roleId, userIds } }),
};

/** Query keys of the authority screens; a save invalidates the role's own. */
export const authorityKeys = {
  all: ['authority'] as const,
  menuTree: ['authority', 'menu-tree'] as const,
  urls: ['authority', 'urls'] as const,
  role: (roleId: string) => ['authority', 'role', roleId] as const,
  roleMenus: (roleId: string) => ['authority', 'role', roleId, 'menus'] as const,
  roleButtons: (roleId: string, roleCode: string) =>
    ['authority', 'role', roleId, 'buttons', roleCode] as const,
  roleUrls: (roleId: string) => ['authority', 'role', roleId, 'urls'] as const,
  roleUsers: (roleId: string) => ['authority', 'role', roleId, 'users'] as const,
  dataRules: (roleId: string, roleCode: string) =>
    ['authority', 'role', roleId, 'data-rules', roleCode] as const,
  /** The server names the fields in the caller's language. */
  dataFields: (menuCode: string, lang: string) =>
    ['authority', 'data-fields', menuCode, lang] as const,
};
