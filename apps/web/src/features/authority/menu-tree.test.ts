import type { MenuButtonNode } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import {
  buttonAction,
  checkedLeafIds,
  leafMenus,
  menuIdsToSave,
  menuLabel,
  menusWithButtons,
  parentMenuIds,
} from './menu-tree';

function menu(
  id: string,
  children: MenuButtonNode[] = [],
  buttons: MenuButtonNode['buttons'] = [],
): MenuButtonNode {
  return { id, menuCode: `m${id}`, menuName: `route.m${id}`, menuParent: null, buttons, children };
}

// 1 admin ─┬─ 2 users
//          ├─ 3 roles
//          └─ 4 group ── 5 deep
// 6 home (a leaf at the top)
const tree = [
  menu('1', [
    menu('2', [], [{ id: 'b1', buttonCode: 'sysuser:add', buttonName: 'Add' }]),
    menu('3'),
    menu('4', [menu('5', [], [{ id: 'b2', buttonCode: 'x:remove', buttonName: 'Remove' }])]),
  ]),
  menu('6'),
];

describe('menu tree', () => {
  it('translates route.* names and shows others as they are', () => {
    const translate = (key: string) => `<${key}>`;
    expect(menuLabel('route.sysuser', translate)).toBe('<route.sysuser>');
    expect(menuLabel('My reports', translate)).toBe('My reports');
  });

  it('passes only granted leaves to the tree, so a granted parent does not check all children', () => {
    expect(checkedLeafIds(tree, ['1', '2', '4'])).toEqual(['2']);
    expect(checkedLeafIds(tree, ['1', '4', '5', '6'])).toEqual(['5', '6']);
    expect(checkedLeafIds(tree, [])).toEqual([]);
  });

  it('saves the checked menus with their half-checked parents, each once, in tree order', () => {
    // The tree reports leaf 5 and, being fully checked, its parent 4.
    expect(menuIdsToSave(tree, ['5', '4'])).toEqual(['1', '4', '5']);
    expect(menuIdsToSave(tree, ['2'])).toEqual(['1', '2']);
    expect(menuIdsToSave(tree, ['6'])).toEqual(['6']);
    expect(menuIdsToSave(tree, ['1', '2', '3', '4', '5'])).toEqual(['1', '2', '3', '4', '5']);
    expect(menuIdsToSave(tree, [])).toEqual([]);
  });

  it('drops ids the tree does not have', () => {
    expect(menuIdsToSave(tree, ['99', '3'])).toEqual(['1', '3']);
  });

  it('lists menus with buttons, with the menus above them', () => {
    expect(
      menusWithButtons(tree).map((entry) => entry.path.map((node) => node.id).join('/')),
    ).toEqual(['1/2', '1/4/5']);
  });

  it('lists the screens (leaves) and the groups (parents)', () => {
    expect(leafMenus(tree).map((entry) => entry.node.id)).toEqual(['2', '3', '5', '6']);
    expect(parentMenuIds(tree)).toEqual(['1', '4']);
  });

  it('reads the action of a button code', () => {
    expect(buttonAction('sysuser:resetPassword')).toBe('resetPassword');
    expect(buttonAction('plain')).toBe('plain');
  });
});
