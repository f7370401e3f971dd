import type { Authority } from '@shuili/contract';
import { create } from 'zustand';
import type { AppRoute } from '../core/app-route';
import { routeTables } from '../core/route-tables';
import { generateRoutes, isPathAllowed } from '../core/generate-routes';
import { useSessionStore } from '../core/session-store';
import { http } from '../lib/http';
import {
  clearChoice,
  isEmptyChoice,
  readChoice,
  validChoice,
  writeChoice,
  type MenuChoice,
  type ParentMenuOption,
  type PostOption,
} from './menu-choice';
import { tagsView, useTagsViewStore } from './tags-view-store';

/** The navbar switch's state: what is chosen, and whether a switch is under way. */
export interface MenuSwitchState {
  choice: MenuChoice;
  switching: boolean;
}

export const useMenuSwitchStore = create<MenuSwitchState>(() => ({
  choice: {},
  switching: false,
}));

interface Pending {
  authority: Authority;
  routes: AppRoute[];
}

// A menu that no longer has the open screen waits until the user has left it (for home);
// applied at once, the route guard would send them to /404 first.
let pending: Pending | undefined;
// The tab's stored choice is put back once per page load and owner.
let restoredFor: string | undefined;

/** Spec §4 switch-menu call: the active role's menu narrowed to the parent, checked by post. */
export function fetchSwitchedMenu(choice: MenuChoice): Promise<Authority> {
  return http.post<Authority>('/api/account/sysuserdetail/switchMenu', {
    data: { parentId: choice.parentId ?? null, postCode: choice.postCode ?? null },
  });
}

/** The routes a menu gives the signed-in user: generated for the active role, as at session start. */
export function routesFor(menu: Authority['menu']): AppRoute[] {
  const { activeRole } = useSessionStore.getState();
  return generateRoutes(routeTables().asyncRoutes, activeRole ? [activeRole] : [], menu);
}

/** Whether a path stays open with the given routes. */
export function stillAllowed(pathname: string, routes: readonly AppRoute[]): boolean {
  return isPathAllowed(pathname, routeTables().asyncRoutes, routes);
}

/**
 * Puts a new menu in place: the session's menu and buttons, and the routes generated from them
 * (what the sidebar, search and route guard read). Tabs of screens it no longer has are closed.
 */
export function applyAuthority(authority: Authority, routes = routesFor(authority.menu)): void {
  useSessionStore.setState({ menu: authority.menu, menuButtons: authority.menuButton, routes });
  for (const view of useTagsViewStore.getState().visitedViews) {
    if (!stillAllowed(view.path, routes)) tagsView.del(view);
  }
}

/** Applies a menu that waited for the user to leave a screen it does not have. */
export function applyPending(pathname: string): void {
  if (!pending || !stillAllowed(pathname, pending.routes)) return;
  applyAuthority(pending.authority, pending.routes);
  pending = undefined;
}

/**
 * Switches the menu (spec §4) and remembers the choice for the tab. When the open screen is not
 * in the new menu, `leave` is called (to go home) and the menu follows once the user is there.
 * A failed call leaves menu and choice as they were (the HTTP client has said why).
 */
export async function switchMenu(owner: string, next: MenuChoice, leave: () => void) {
  useMenuSwitchStore.setState({ switching: true });
  try {
    const authority = await fetchSwitchedMenu(next);
    if (useSessionStore.getState().status !== 'ready') return;
    const routes = routesFor(authority.menu);
    if (stillAllowed(window.location.pathname, routes)) {
      pending = undefined;
      applyAuthority(authority, routes);
    } else {
      pending = { authority, routes };
      leave();
    }
    writeChoice(owner, next);
    useMenuSwitchStore.setState({ choice: next });
  } catch {
    // Reported by the HTTP client.
  } finally {
    useMenuSwitchStore.setState({ switching: false });
  }
}

/**
 * After a reload: puts the tab's stored choice back, without what the options no longer offer.
 * Runs once per page load and owner.
 */
export function restoreChoice(
  owner: string,
  parents: readonly ParentMenuOption[],
  posts: readonly PostOption[],
  leave: () => void,
): void {
  if (restoredFor === owner) return;
  restoredFor = owner;
  const stored = readChoice(owner);
  if (!stored) return;
  const valid = validChoice(stored, parents, posts);
  if (isEmptyChoice(valid)) {
    clearChoice();
    return;
  }
  void switchMenu(owner, valid, leave);
}

// Spec §4: logout forgets the session's state in session storage; the menu choice goes with it.
useSessionStore.subscribe((state, previous) => {
  if (previous.status !== 'ready' || state.status === 'ready') return;
  clearChoice();
  pending = undefined;
  restoredFor = undefined;
  useMenuSwitchStore.setState({ choice: {}, switching: false });
});
