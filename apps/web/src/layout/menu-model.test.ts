import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../core/app-route';
import { buildMenu, isExternal, menuAncestors } from './menu-model';

const Page = Object.assign(() => null, {});

const routes: AppRoute[] = [
  { path: '/redirect', hidden: true, children: [{ path: '*', page: Page }] },
  {
    path: '/home',
    redirect: '/home/workbench',
    meta: { title: 'route.home', icon: 'home' },
    children: [{ path: 'workbench', page: Page, meta: { title: 'route.workbench' } }],
  },
  { path: '/profile', hidden: true, children: [{ path: 'index', page: Page }] },
  {
    path: '/admin',
    meta: { title: 'route.admin', icon: 'setting' },
    children: [
      { path: 'sysuser', page: Page, meta: { title: 'route.sysuser', icon: 'user' } },
      { path: 'sysorg', page: Page, meta: { title: 'route.sysorg' } },
      { path: 'sysuser/:id', page: Page, hidden: true, meta: { title: 'route.detail' } },
    ],
  },
  {
    path: '/nested',
    alwaysShow: true,
    meta: { title: 'route.nested' },
    children: [
      {
        path: 'menu1',
        meta: { title: 'route.menu1' },
        children: [
          { path: 'menu1-1', page: Page, meta: { title: 'route.menu11' } },
          { path: 'menu1-2', page: Page, meta: { title: 'route.menu12' } },
        ],
      },
    ],
  },
  { path: '/empty', meta: { title: 'route.empty' }, children: [] },
  { path: 'https://example.com/docs', meta: { title: 'route.docs', icon: 'link' } },
];

describe('buildMenu', () => {
  const menu = buildMenu(routes);

  it('shows a single visible child in its group’s place, with the group’s icon as fallback', () => {
    expect(menu[0]).toEqual({
      key: '/home/workbench',
      title: 'route.workbench',
      icon: 'home',
      external: false,
    });
  });

  it('leaves hidden routes and empty groups out', () => {
    expect(menu.map((item) => item.key)).toEqual([
      '/home/workbench',
      '/admin',
      '/nested',
      'https://example.com/docs',
    ]);
    expect(menu[1]?.children?.map((item) => item.key)).toEqual(['/admin/sysuser', '/admin/sysorg']);
  });

  it('keeps nested groups, and alwaysShow groups with one child', () => {
    expect(menu[2]?.children?.[0]?.key).toBe('/nested/menu1');
    expect(menu[2]?.children?.[0]?.children?.map((item) => item.key)).toEqual([
      '/nested/menu1/menu1-1',
      '/nested/menu1/menu1-2',
    ]);
  });

  it('marks external links', () => {
    expect(menu[3]?.external).toBe(true);
    expect(isExternal('mailto:a@b.c')).toBe(true);
    expect(isExternal('/admin')).toBe(false);
  });
});

describe('menuAncestors', () => {
  const menu = buildMenu(routes);

  it('names the groups to open for an entry, outermost first', () => {
    expect(menuAncestors(menu, '/nested/menu1/menu1-2')).toEqual(['/nested', '/nested/menu1']);
    expect(menuAncestors(menu, '/admin/sysorg')).toEqual(['/admin']);
    expect(menuAncestors(menu, '/home/workbench')).toEqual([]);
    expect(menuAncestors(menu, '/nowhere')).toEqual([]);
  });
});
