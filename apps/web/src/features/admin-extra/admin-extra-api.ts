import {
  USER_LINK_CALLS,
  type OnlineSession,
  type PageResult,
  type UserProjects,
  type ZoneNode,
} from '@shuili/contract';
import { http } from '../../lib/http';
import type { ZoneRow } from './zone-tree';

/** A role as the grant dialog offers it. */
export interface RoleOption {
  id: string;
  roleCode: string;
  roleName: string;
}

/** A user as the zone assignment screen lists them. */
export interface UserListRow {
  id: string;
  username: string;
  nickname: string;
  orgIdLabel?: string | null;
  status?: number;
}

export interface PageQuery {
  currentPage: number;
  pageSize: number;
}

export interface UserQuery extends PageQuery {
  username?: string;
  nickname?: string;
}

/** Zones are a tenant's few hundred at most: one page holds them all. */
const ALL_ZONES = 10_000;

/** Spec §7 user and zone calls of the special admin screens. */
export const adminExtraApi = {
  roleOptions: (signal?: AbortSignal) =>
    http.get<RoleOption[]>('/api/admin/sysrole/queryRoleNameCheckbox', { signal }),

  authorizeRoles: (userId: string, roleIds: string[]) =>
    http.post<null>('/api/admin/sysuser/authorizeRoleToUser', { data: { userId, roleIds } }),

  /** The form shows the server's field errors itself. */
  resetPassword: (id: string, password: string) =>
    http.post<null>('/api/admin/sysuser/resetSysUserPassword', {
      data: { id, password },
      quietFieldErrors: true,
    }),

  /** Turns the user's two-step verification off and ends their sessions. */
  resetSecondFactor: (id: string) =>
    http.post<{ wasOn: boolean; revoked: number }>('/api/admin/sysuser/resetSysUserSecondFactor', {
      data: { id },
    }),

  /** Ends every session of the user. */
  removePrincipal: (username: string) =>
    http.post<{ revoked: number }>('/api/admin/sysuser/removePrincipal', {
      params: { username },
    }),

  onlineUsers: (query: PageQuery & { username?: string }, signal?: AbortSignal) =>
    http.get<PageResult<OnlineSession>>('/api/admin/sysuser/queryOnlineSysUser', {
      params: { ...query },
      signal,
    }),

  users: (query: UserQuery, signal?: AbortSignal) =>
    http.get<PageResult<UserListRow>>('/api/admin/sysuser/querySysUser', {
      params: { ...query, sort: 'username', order: 'ascend' },
      signal,
    }),

  zones: (signal?: AbortSignal) =>
    http.get<PageResult<ZoneRow>>('/api/admin/syszone/queryZone', {
      params: { currentPage: 1, pageSize: ALL_ZONES },
      signal,
    }),

  assignedZoneIds: (userId: string, signal?: AbortSignal) =>
    http.get<string[]>('/api/admin/syszone/queryAssignedZoneIds', { params: { userId }, signal }),

  /** Spec §7: assignZone takes params, the ids joined by commas. */
  assignZones: (userId: string, zoneIds: readonly string[]) =>
    http.post<null>('/api/admin/syszone/assignZone', {
      params: { userId, zoneIds: zoneIds.join(',') },
    }),

  /** Every project of the tenant, marked where the user is bound to it. */
  userProjects: (userId: string, signal?: AbortSignal) =>
    http.get<UserProjects>(USER_LINK_CALLS.queryProjects, { params: { userId }, signal }),

  /** Replaces the user's projects (none: the user sees every project's devices). */
  bindProjects: (userId: string, projectIds: readonly string[]) =>
    http.post<null>(USER_LINK_CALLS.bindProjects, { data: { userId, projectIds } }),

  /** The caller's own zones (all of them for ROLE_ADMIN), for the zone store. */
  currentZones: (signal?: AbortSignal) =>
    http.get<ZoneNode[]>('/api/admin/syszone/queryCurrentZones', { signal }),
};

export const adminExtraKeys = {
  roleOptions: ['admin-extra', 'role-options'] as const,
  online: ['admin-extra', 'online'] as const,
  users: ['admin-extra', 'users'] as const,
  zones: ['admin-extra', 'zones'] as const,
  assignedZones: (userId: string) => ['admin-extra', 'assigned-zones', userId] as const,
  userProjects: (userId: string) => ['admin-extra', 'user-projects', userId] as const,
};
