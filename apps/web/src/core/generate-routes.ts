import { ROLE_ADMIN, type MenuNode } from '@shuili/contract';
import type { AppRoute } from './app-route';

/** Joins a parent and a child path the way nested routes resolve them. */
export function joinPath(parent: string, child: string): string {
  const joined = child.startsWith('/') ? child : `${parent.replace(/\/+$/, '')}/${child}`;
  const clean = joined.replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
  return clean.startsWith('/') ? clean : `/${clean}`;
}

/** A route without roles is open to every signed-in user (spec §6). */
export function hasPermission(roles: readonly string[], route: AppRoute): boolean {
  const allowed = route.meta?.roles;
  return !allowed || allowed.some((role) => roles.includes(role));
}

/** Keeps the routes (and, alike, their children) whose meta roles include one of the roles. */
export function filterAsyncRoutes(
  routes: readonly AppRoute[],
  roles: readonly string[],
): AppRoute[] {
  const kept: AppRoute[] = [];
  for (const route of routes) {
    if (!hasPermission(roles, route)) continue;
    const copy: AppRoute = { ...route };
    if (route.children) copy.children = filterAsyncRoutes(route.children, roles);
    kept.push(copy);
  }
  return kept;
}

/** Every full path the server's menu names, children resolved against their parents. */
export function collectMenuPaths(menu: readonly MenuNode[], parent = '/'): Set<string> {
  const paths = new Set<string>();
  for (const node of menu) {
    if (!node.menuPath) continue;
    const full = joinPath(parent, node.menuPath);
    paths.add(full);
    for (const child of collectMenuPaths(node.children ?? [], full)) paths.add(child);
  }
  return paths;
}

interface Narrowed {
  route: AppRoute;
  /** Stays on its own account: listed in the menu, or an ancestor of a listed route. */
  listed: boolean;
}

function narrow(
  routes: readonly AppRoute[],
  menuPaths: ReadonlySet<string>,
  parent: string,
): Narrowed[] {
  const kept: Narrowed[] = [];
  for (const route of routes) {
    const full = joinPath(parent, route.path);
    const children = route.children ? narrow(route.children, menuPaths, full) : undefined;
    const listed = menuPaths.has(full) || (children ?? []).some((child) => child.listed);
    if (!listed && !route.hidden) continue;
    const copy: AppRoute = { ...route };
    if (children) copy.children = children.map((child) => child.route);
    kept.push({ route: copy, listed });
  }
  return kept;
}

/**
 * Narrows routes to those the server's menu names. A route stays when the menu lists its path or
 * the path of one of its descendants; a hidden route (detail and editor pages are never menu
 * items) stays wherever its parent does.
 */
export function narrowToMenu(
  routes: readonly AppRoute[],
  menuPaths: ReadonlySet<string>,
): AppRoute[] {
  return narrow(routes, menuPaths, '/').map((entry) => entry.route);
}

/**
 * Spec §4 route generation: ROLE_ADMIN gets every async route, others those their roles allow;
 * either way only what the server's menu lists stays visible.
 */
export function generateRoutes(
  asyncRoutes: readonly AppRoute[],
  roles: readonly string[],
  menu: readonly MenuNode[],
): AppRoute[] {
  const byRole = roles.includes(ROLE_ADMIN) ? asyncRoutes : filterAsyncRoutes(asyncRoutes, roles);
  return narrowToMenu(byRole, collectMenuPaths(menu));
}

/** Every full path of a route tree, parents before children. */
export function flattenPaths(routes: readonly AppRoute[], parent = '/'): string[] {
  return routes.flatMap((route) => {
    const full = joinPath(parent, route.path);
    return [full, ...flattenPaths(route.children ?? [], full)];
  });
}

/** Matches a concrete pathname against a route pattern with :params and a trailing *. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = joinPath('/', pattern).split('/');
  const have = joinPath('/', pathname).split('/');
  if (want.at(-1) === '*') {
    const head = want.slice(0, -1);
    return (
      have.length > head.length &&
      head.every((segment, i) => segment.startsWith(':') || segment === have[i])
    );
  }
  if (want.length !== have.length) return false;
  return want.every((segment, i) => segment.startsWith(':') || segment === have[i]);
}

/**
 * Whether a pathname may be opened: paths the async table does not know (constant routes) are
 * always allowed; known ones only when route generation kept them.
 */
export function isPathAllowed(
  pathname: string,
  asyncRoutes: readonly AppRoute[],
  accessible: readonly AppRoute[],
): boolean {
  const known = flattenPaths(asyncRoutes).filter((pattern) => matchesPattern(pattern, pathname));
  if (known.length === 0) return true;
  return flattenPaths(accessible).some((pattern) => matchesPattern(pattern, pathname));
}

/** One step of the way from a top-level group down to a screen. */
export interface RouteLink {
  route: AppRoute;
  /** The step's full path (a pattern when it has :params). */
  path: string;
}

/** A screen or redirect of the route tree with the groups above it, top first. */
export interface RouteTrail {
  path: string;
  trail: RouteLink[];
}

/**
 * Every route that shows a screen or redirects, with its full path and its trail of ancestors:
 * what the router is built from, and what breadcrumbs, tags and the search read.
 */
export function routeTrails(routes: readonly AppRoute[], parent: RouteLink[] = []): RouteTrail[] {
  const parentPath = parent.at(-1)?.path ?? '/';
  return routes.flatMap((route) => {
    const path = joinPath(parentPath, route.path);
    const trail = [...parent, { route, path }];
    const own = route.page || route.redirect ? [{ path, trail }] : [];
    return [...own, ...routeTrails(route.children ?? [], trail)];
  });
}

/** The trail of the screen a pathname opens, if the routes have one. */
export function findTrail(routes: readonly AppRoute[], pathname: string): RouteTrail | undefined {
  return routeTrails(routes).find(
    (entry) => entry.trail.at(-1)?.route.page && matchesPattern(entry.path, pathname),
  );
}
