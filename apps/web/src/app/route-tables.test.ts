import { ENTITIES } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { asyncRoutes } from './async-routes';
import {
  findTrail,
  flattenPaths,
  generateRoutes,
  isPathAllowed,
  routeTrails,
} from '../core/generate-routes';
import { menuNode as node } from '../core/menu-test-node';
import { constantRoutes } from './constant-routes';
import type { MenuNode } from '@shuili/contract';

describe('admin routes', () => {
  const screens = routeTrails(asyncRoutes).filter((entry) => entry.trail.at(-1)?.route.page);

  it('gives every declared entity a screen at its route', () => {
    const paths = new Set(flattenPaths(asyncRoutes));
    expect(ENTITIES.map((entity) => entity.route).filter((route) => !paths.has(route))).toEqual([]);
  });

  it('titles every screen with a route.* key and names it uniquely', () => {
    const titles = screens.map((entry) => entry.trail.at(-1)!.route.meta?.title ?? '');
    expect(titles.filter((title) => !title.startsWith('route.'))).toEqual([]);
    const names = screens.map((entry) => entry.trail.at(-1)!.route.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('constant routes', () => {
  it('pin the workbench and keep the refresh redirect out of the menu', () => {
    const workbench = findTrail(constantRoutes, '/home/workbench');
    expect(workbench?.trail.map((link) => link.path)).toEqual(['/home', '/home/workbench']);
    expect(workbench?.trail.at(-1)?.route.meta?.affix).toBe(true);
    expect(constantRoutes.find((route) => route.path === '/redirect')?.hidden).toBe(true);
    expect(findTrail(constantRoutes, '/redirect/profile/index')?.path).toBe('/redirect/*');
  });
});

describe('administrator-only routes of the console (spec §6 meta roles)', () => {
  const ADMIN_ONLY = [
    '/systenant',
    '/admin/appclient',
    '/admin/onlinesysuser',
    '/authority/sysurl',
    '/authority/datapermission',
  ];
  // A menu naming every one of them, as a role granted those menus (and their URLs) gets.
  const granted = [
    node('/admin', [node('appclient'), node('onlinesysuser'), node('sysuser')]),
    node('/authority', [node('sysurl'), node('datapermission'), node('sysrole')]),
    node('/systenant'),
  ];
  const allowed = (roles: string[], menu: MenuNode[]) => {
    const routes = generateRoutes(asyncRoutes, roles, menu);
    return [...ADMIN_ONLY, '/admin/sysuser', '/authority/sysrole'].filter((path) =>
      isPathAllowed(path, asyncRoutes, routes),
    );
  };

  it('declares ROLE_ADMIN on exactly those routes', () => {
    const declared = routeTrails(asyncRoutes)
      .filter((entry) => entry.trail.some((link) => link.route.meta?.roles))
      .map((entry) => entry.path);
    expect(declared.sort()).toEqual([...ADMIN_ONLY].sort());
    for (const path of ADMIN_ONLY) {
      expect(findTrail(asyncRoutes, path)?.trail.at(-1)?.route.meta?.roles).toEqual(['ROLE_ADMIN']);
    }
  });

  it('keeps them from another role even when its menu lists them', () => {
    expect(allowed(['ROLE_OPERATOR'], granted)).toEqual(['/admin/sysuser', '/authority/sysrole']);
  });

  it('gives them to ROLE_ADMIN as far as its tenant’s menu goes', () => {
    expect(allowed(['ROLE_ADMIN'], granted)).toEqual([
      ...ADMIN_ONLY,
      '/admin/sysuser',
      '/authority/sysrole',
    ]);
    // A tenant other than the platform has no tenants or app clients menus: the rest stays.
    const tenantMenu = [
      node('/admin', [node('onlinesysuser'), node('sysuser')]),
      node('/authority', [node('sysurl'), node('datapermission'), node('sysrole')]),
    ];
    expect(allowed(['ROLE_ADMIN'], tenantMenu)).toEqual([
      '/admin/onlinesysuser',
      '/authority/sysurl',
      '/authority/datapermission',
      '/admin/sysuser',
      '/authority/sysrole',
    ]);
  });
});
