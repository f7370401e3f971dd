import { describe, expect, it } from 'vitest';
import { constantRoutes } from '../app/constant-routes';
import en from '../i18n/en.json';
import tw from '../i18n/tw.json';
import zh from '../i18n/zh.json';
import type { AppRoute } from '../core/app-route';
import { buildSearchIndex, createMenuSearch, pinyinOf } from './menu-search';

type Tree = { [key: string]: string | Tree };

function translator(catalogue: Tree) {
  return (key: string) => {
    const found = key
      .split('.')
      .reduce<string | Tree | undefined>(
        (node, part) => (node && typeof node === 'object' ? node[part] : undefined),
        catalogue,
      );
    return typeof found === 'string' ? found : key;
  };
}

const Page = Object.assign(() => null, {});
const users: AppRoute = {
  path: '/admin',
  meta: { title: 'admin' },
  children: [
    { path: 'sysuser', page: Page, meta: { title: 'users' } },
    { path: 'sysuser/:id', page: Page, hidden: true, meta: { title: 'user' } },
  ],
};
const demo: Tree = { admin: '系统管理', users: '用户管理', user: '用户' };

const search = (routes: AppRoute[], catalogue: Tree, pinyin: boolean) =>
  createMenuSearch(buildSearchIndex(routes, translator(catalogue), pinyin));

describe('pinyinOf', () => {
  it('gives full pinyin and initials of Chinese titles, simplified or traditional', () => {
    expect(pinyinOf('用户')).toEqual(['yonghu', 'yh']);
    expect(pinyinOf('個人中心')).toEqual(['gerenzhongxin', 'grzx']);
    expect(pinyinOf('Workbench')).toEqual([]);
  });
});

describe('buildSearchIndex', () => {
  it('indexes the constant screens, hidden ones too, but not the refresh redirect', () => {
    const items = buildSearchIndex(constantRoutes, translator(zh as Tree), true);
    expect(items.map((item) => item.path)).toEqual([
      '/home/workbench',
      '/profile/index',
      '/mynotification',
    ]);
    expect(items[0]).toEqual({
      path: '/home/workbench',
      title: ['首页', '工作台'],
      pinyin: ['shouye', 'sy', 'gongzuotai', 'gzt'],
    });
  });

  it('leaves screens with parameters out and gives English no pinyin', () => {
    const items = buildSearchIndex([users], (key) => key, false);
    expect(items).toEqual([{ path: '/admin/sysuser', title: ['admin', 'users'], pinyin: [] }]);
  });
});

describe('menu search', () => {
  it("finds the workbench by 'gzt' and 'gongzuo' in zh, and in tw", () => {
    expect(search(constantRoutes, zh as Tree, true)('gzt')[0]?.path).toBe('/home/workbench');
    expect(search(constantRoutes, zh as Tree, true)('gongzuo')[0]?.path).toBe('/home/workbench');
    expect(search(constantRoutes, tw as Tree, true)('gzt')[0]?.path).toBe('/home/workbench');
  });

  it("finds the profile by 'grzx' and by its title", () => {
    expect(search(constantRoutes, zh as Tree, true)('grzx')[0]?.path).toBe('/profile/index');
    expect(search(constantRoutes, zh as Tree, true)('个人')[0]?.path).toBe('/profile/index');
  });

  it("finds 用户 by 'yh' and 'yonghu'", () => {
    expect(search([users], demo, true)('yh')[0]?.path).toBe('/admin/sysuser');
    expect(search([users], demo, true)('yonghu')[0]?.path).toBe('/admin/sysuser');
  });

  it('finds by English title and by path', () => {
    const find = search(constantRoutes, en as Tree, false);
    expect(find('workb')[0]?.path).toBe('/home/workbench');
    expect(find('mynotif')[0]?.path).toBe('/mynotification');
  });

  it('finds nothing for a blank query and ignores what goes past 32 characters', () => {
    const find = search(constantRoutes, en as Tree, false);
    expect(find('   ')).toEqual([]);
    expect(find(`workbench${'x'.repeat(40)}`)).toEqual(find(`workbench${'x'.repeat(23)}`));
  });
});
