import type { MenuButtonNode } from '@shuili/contract';

/** A menu of the tree with the menus above it, top first. */
export interface MenuEntry {
  node: MenuButtonNode;
  /** The menus from the top down to this one (itself last). */
  path: MenuButtonNode[];
}

/**
 * A menu's name as people read it: server menus name their screens by route.* translation keys;
 * menus typed in by hand are shown as they are.
 */
export function menuLabel(menuName: string, translate: (key: string) => string): string {
  return menuName.startsWith('route.') ? translate(menuName) : menuName;
}

/** Every menu of the tree, parents before their children. */
export function flattenMenus(
  nodes: readonly MenuButtonNode[],
  parents: MenuButtonNode[] = [],
): MenuEntry[] {
  return nodes.flatMap((node) => {
    const path = [...parents, node];
    return [{ node, path }, ...flattenMenus(node.children, path)];
  });
}

/**
 * The granted menus as a checkable tree that conducts checks must be told them: a parent marked
 * checked would check every child with it, so only the granted leaves are passed; the tree then
 * works out which parents are checked or half-checked.
 */
export function checkedLeafIds(
  nodes: readonly MenuButtonNode[],
  granted: Iterable<string>,
): string[] {
  const grantedSet = new Set(granted);
  return flattenMenus(nodes)
    .filter(({ node }) => node.children.length === 0 && grantedSet.has(node.id))
    .map(({ node }) => node.id);
}

/**
 * What authorizeMenuToRole receives for the checked menus: the checked ones and every menu above
 * them (the half-checked parents), each once, in tree order. A child menu without its group
 * would never show in the sidebar.
 */
export function menuIdsToSave(
  nodes: readonly MenuButtonNode[],
  checked: Iterable<string>,
): string[] {
  const checkedSet = new Set(checked);
  const keep = new Set<string>();
  for (const { node, path } of flattenMenus(nodes)) {
    if (!checkedSet.has(node.id)) continue;
    for (const step of path) keep.add(step.id);
  }
  return flattenMenus(nodes)
    .map(({ node }) => node.id)
    .filter((id) => keep.has(id));
}

/** The menus that have buttons, in tree order, with the menus above them. */
export function menusWithButtons(nodes: readonly MenuButtonNode[]): MenuEntry[] {
  return flattenMenus(nodes).filter(({ node }) => node.buttons.length > 0);
}

/** The menus without children: the screens, whose data fields may be restricted. */
export function leafMenus(nodes: readonly MenuButtonNode[]): MenuEntry[] {
  return flattenMenus(nodes).filter(({ node }) => node.children.length === 0);
}

/** The action part of a button code: 'sysuser:add' → 'add'. */
export function buttonAction(buttonCode: string): string {
  const at = buttonCode.lastIndexOf(':');
  return at < 0 ? buttonCode : buttonCode.slice(at + 1);
}

/** Every menu id of the tree, for "check all". */
export function allMenuIds(nodes: readonly MenuButtonNode[]): string[] {
  return flattenMenus(nodes).map(({ node }) => node.id);
}

/** The menus that have children, for "expand all". */
export function parentMenuIds(nodes: readonly MenuButtonNode[]): string[] {
  return flattenMenus(nodes)
    .filter(({ node }) => node.children.length > 0)
    .map(({ node }) => node.id);
}
