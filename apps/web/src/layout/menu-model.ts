import type { AppRoute } from '../core/app-route';
import { joinPath } from '../core/generate-routes';

/** One sidebar entry: a screen (key = its full path or external link) or a group of entries. */
export interface MenuEntry {
  key: string;
  /** An i18n key. */
  title: string;
  icon?: string;
  external: boolean;
  children?: MenuEntry[];
}

/** Spec §5 link check: external links open in a new tab instead of routing. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

function resolve(parent: string, path: string): string {
  return isExternal(path) ? path : joinPath(parent, path);
}

function entry(route: AppRoute, key: string, fallbackIcon?: string): MenuEntry | undefined {
  const title = route.meta?.title;
  if (!title) return undefined;
  return { key, title, icon: route.meta?.icon ?? fallbackIcon, external: isExternal(key) };
}

/**
 * The sidebar of a route tree (the vue-element-admin rules the spec comes from): hidden routes
 * are left out; a group with one visible child that has none of its own shows that child in its
 * place (unless alwaysShow); a group whose children are all hidden shows itself when it is a
 * screen; empty groups and untitled routes are dropped.
 */
export function buildMenu(routes: readonly AppRoute[], parent = '/'): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const route of routes) {
    if (route.hidden) continue;
    const path = resolve(parent, route.path);
    const showing = (route.children ?? []).filter((child) => !child.hidden);
    const only = showing.length === 1 ? showing[0] : undefined;
    const onlyIsLeaf = only && !(only.children ?? []).some((child) => !child.hidden);

    let made: MenuEntry | undefined;
    if (only && onlyIsLeaf && !route.alwaysShow) {
      made = entry(only, resolve(path, only.path), route.meta?.icon);
    } else if (showing.length === 0) {
      made = route.page || route.redirect || isExternal(path) ? entry(route, path) : undefined;
    } else {
      const children = buildMenu(showing, path);
      const group = entry(route, path);
      if (group && children.length > 0) made = { ...group, children };
    }
    if (made) entries.push(made);
  }
  return entries;
}

/** The keys of the groups above an entry, outermost first: the submenus to open. */
export function menuAncestors(entries: readonly MenuEntry[], key: string): string[] {
  for (const item of entries) {
    if (item.key === key) return [];
    if (item.children) {
      const below = menuAncestors(item.children, key);
      if (below.length > 0 || item.children.some((child) => child.key === key)) {
        return [item.key, ...below];
      }
    }
  }
  return [];
}
