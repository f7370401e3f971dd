import type { MenuNode } from '@shuili/contract';

let nextId = 0;

/** A menu node as the server sends it (spec §4 authority), for route generation tests. */
export function menuNode(menuPath: string, children: MenuNode[] = []): MenuNode {
  nextId += 1;
  return {
    id: String(nextId),
    menuCode: `m${nextId}`,
    menuName: menuPath,
    menuIcon: null,
    menuPath,
    menuComponent: null,
    menuSequence: nextId,
    menuParent: null,
    children,
  };
}
