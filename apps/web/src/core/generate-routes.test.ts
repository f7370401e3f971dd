import { describe, expect, it } from 'vitest';
import type { AppRoute } from './app-route';
import { menuNode as node } from './menu-test-node';
import {
  collectMenuPaths,
  filterAsyncRoutes,
  findTrail,
  generateRoutes,
  isPathAllowed,
  joinPath,
  matchesPattern,
  narrowToMenu,
  routeTrails,
} from './generate-routes';

const routes: AppRoute[] = [
  {
    path: '/admin',
    meta: { title: 'admin' },
    children: [
      { path: 'sysuser', meta: { title: 'user', roles: ['ROLE_ADMIN'] } },
      { path: 'sysorg', meta: { title: 'org' } },
      { path: 'sysdict', meta: { title: 'dict', roles: ['ROLE_OPERATOR'] } },
    ],
  },
  {
    path: '/irrigation',
    meta: { title: 'irrigation', roles: ['ROLE_OPERATOR', 'ROLE_ADMIN'] },
    children: [
      { path: 'irrigationDevice', meta: { title: 'device' } },
      { path: 'irrigationDataReport', meta: { title: 'report' } },
    ],
  },
  {
    path: '/IOTproductList',
    meta: { title: 'products' },
    children: [{ path: '/IOTproductShowEdit/:serialNo', hidden: true, meta: { title: 'edit' } }],
  },
  { path: '/permission', meta: { title: 'permission', roles: ['ROLE_EDITOR'] } },
];

const fullMenu = [
  node('/admin', [node('sysuser'), node('sysorg'), node('sysdict')]),
  node('/irrigation', [node('/irrigation/irrigationDevice'), node('irrigationDataReport')]),
  node('/IOTproductList'),
  node('/permission'),
];

function paths(list: AppRoute[], parent = ''): string[] {
  return list.flatMap((r) => [
    joinPath(parent || '/', r.path),
    ...paths(r.children ?? [], joinPath(parent || '/', r.path)),
  ]);
}

describe('joinPath', () => {
  it('resolves relative children and keeps absolute ones', () => {
    expect(joinPath('/admin', 'sysuser')).toBe('/admin/sysuser');
    expect(joinPath('/admin/', '/sysuser/')).toBe('/sysuser');
    expect(joinPath('/', 'admin')).toBe('/admin');
    expect(joinPath('/', '/')).toBe('/');
  });
});

describe('filterAsyncRoutes', () => {
  it('keeps routes without roles and those naming one of the roles, children alike', () => {
    const kept = filterAsyncRoutes(routes, ['ROLE_OPERATOR']);
    expect(paths(kept)).toEqual([
      '/admin',
      '/admin/sysorg',
      '/admin/sysdict',
      '/irrigation',
      '/irrigation/irrigationDevice',
      '/irrigation/irrigationDataReport',
      '/IOTproductList',
      '/IOTproductShowEdit/:serialNo',
    ]);
  });

  it('does not modify its input', () => {
    const before = JSON.stringify(routes);
    filterAsyncRoutes(routes, []);
    expect(JSON.stringify(routes)).toBe(before);
  });
});

describe('collectMenuPaths', () => {
  it('resolves child menu paths against their parents', () => {
    expect([...collectMenuPaths(fullMenu)]).toEqual([
      '/admin',
      '/admin/sysuser',
      '/admin/sysorg',
      '/admin/sysdict',
      '/irrigation',
      '/irrigation/irrigationDevice',
      '/irrigation/irrigationDataReport',
      '/IOTproductList',
      '/permission',
    ]);
  });
});

describe('narrowToMenu', () => {
  it('keeps a group when only a child is listed, and hidden pages under a kept parent', () => {
    const kept = narrowToMenu(routes, new Set(['/admin/sysorg', '/IOTproductList']));
    expect(paths(kept)).toEqual([
      '/admin',
      '/admin/sysorg',
      '/IOTproductList',
      '/IOTproductShowEdit/:serialNo',
    ]);
  });

  it('drops hidden pages whose parent is not listed', () => {
    expect(narrowToMenu(routes, new Set(['/admin']))).toHaveLength(1);
  });
});

describe('generateRoutes', () => {
  it('gives ROLE_ADMIN every async route the menu lists, whatever the meta roles', () => {
    const kept = generateRoutes(routes, ['ROLE_ADMIN'], fullMenu);
    expect(paths(kept)).toEqual(paths(routes));
  });

  it('filters other roles by meta roles, then by the menu', () => {
    const menu = [node('/admin', [node('sysuser'), node('sysdict')]), node('/permission')];
    const kept = generateRoutes(routes, ['ROLE_OPERATOR'], menu);
    expect(paths(kept)).toEqual(['/admin', '/admin/sysdict']);
  });

  it('narrows ROLE_ADMIN by the menu too', () => {
    expect(generateRoutes(routes, ['ROLE_ADMIN'], [])).toEqual([]);
  });
});

describe('isPathAllowed', () => {
  const accessible = generateRoutes(routes, ['ROLE_OPERATOR'], fullMenu);

  it('allows paths the async table does not know', () => {
    expect(isPathAllowed('/home/workbench', routes, accessible)).toBe(true);
  });

  it('allows generated routes, with params', () => {
    expect(isPathAllowed('/admin/sysorg', routes, accessible)).toBe(true);
    expect(isPathAllowed('/IOTproductShowEdit/42', routes, accessible)).toBe(true);
  });

  it('refuses known routes that generation dropped', () => {
    expect(isPathAllowed('/admin/sysuser', routes, accessible)).toBe(false);
    expect(isPathAllowed('/permission', routes, accessible)).toBe(false);
  });

  it('matches patterns segment by segment', () => {
    expect(matchesPattern('/a/:id', '/a/1')).toBe(true);
    expect(matchesPattern('/a/:id', '/a/1/b')).toBe(false);
    expect(matchesPattern('/a/b', '/a/c')).toBe(false);
  });
});

describe('role filtering of nested routes', () => {
  const nested: AppRoute[] = [
    {
      path: '/permission',
      meta: { title: 'permission', roles: ['ROLE_ADMIN', 'ROLE_EDITOR'] },
      children: [
        { path: 'page', meta: { title: 'page', roles: ['ROLE_ADMIN'] } },
        { path: 'directive', meta: { title: 'directive' } },
        {
          path: 'role',
          meta: { title: 'role' },
          children: [{ path: 'deep', meta: { title: 'deep', roles: ['ROLE_ADMIN'] } }],
        },
      ],
    },
  ];

  it('filters every level by meta roles (spec §6 permission demo)', () => {
    expect(paths(filterAsyncRoutes(nested, ['ROLE_EDITOR']))).toEqual([
      '/permission',
      '/permission/directive',
      '/permission/role',
    ]);
    expect(filterAsyncRoutes(nested, ['ROLE_OPERATOR'])).toEqual([]);
  });

  it('gives ROLE_ADMIN everything the menu lists, then narrows nested groups by the menu', () => {
    const menu = [node('/permission', [node('page'), node('role', [node('deep')])])];
    expect(paths(generateRoutes(nested, ['ROLE_ADMIN'], menu))).toEqual([
      '/permission',
      '/permission/page',
      '/permission/role',
      '/permission/role/deep',
    ]);
  });
});

describe('constant routes', () => {
  it('are open to every signed-in user whatever generation kept', () => {
    const accessible = generateRoutes(routes, ['ROLE_OPERATOR'], []);
    for (const path of ['/home/workbench', '/profile/index', '/mynotification']) {
      expect(isPathAllowed(path, routes, accessible)).toBe(true);
    }
  });
});

describe('routeTrails and findTrail', () => {
  const Page = Object.assign(() => null, {});
  const tree: AppRoute[] = [
    {
      path: '/example',
      redirect: '/example/list',
      meta: { title: 'example' },
      children: [
        { path: 'list', page: Page, meta: { title: 'list' } },
        {
          path: 'edit/:id',
          page: Page,
          hidden: true,
          meta: { title: 'edit', activeMenu: '/example/list' },
        },
        { path: 'group', meta: { title: 'group' }, children: [] },
      ],
    },
  ];

  it('lists screens and redirects with their full paths and ancestors', () => {
    expect(routeTrails(tree).map((entry) => [entry.path, entry.trail.length])).toEqual([
      ['/example', 1],
      ['/example/list', 2],
      ['/example/edit/:id', 2],
    ]);
  });

  it('finds the screen a pathname opens, params included, never a bare redirect', () => {
    expect(findTrail(tree, '/example/edit/7')?.trail.at(-1)?.route.meta?.activeMenu).toBe(
      '/example/list',
    );
    expect(findTrail(tree, '/example')).toBeUndefined();
    expect(findTrail(tree, '/example/nothing')).toBeUndefined();
  });

  it('matches a trailing * against one or more segments', () => {
    expect(matchesPattern('/redirect/*', '/redirect/home/workbench')).toBe(true);
    expect(matchesPattern('/redirect/*', '/redirect')).toBe(false);
  });
});
