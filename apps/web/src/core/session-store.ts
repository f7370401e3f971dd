import type { MenuNode, Org, SysUser } from '@shuili/contract';
import { create } from 'zustand';
import type { AppRoute } from './app-route';

/** The signed-in user's session as loaded by the spec §4 sequence. */
export interface SessionState {
  /** 'ready' once user info, authority, organisations and routes have all loaded. */
  status: 'empty' | 'ready';
  user: SysUser | undefined;
  roles: string[];
  activeRole: string | undefined;
  menu: MenuNode[];
  menuButtons: string[];
  orgs: Org[];
  /** The async routes this user may see (route generation). */
  routes: AppRoute[];
}

const empty: SessionState = {
  status: 'empty',
  user: undefined,
  roles: [],
  activeRole: undefined,
  menu: [],
  menuButtons: [],
  orgs: [],
  routes: [],
};

export const useSessionStore = create<SessionState>(() => ({ ...empty }));

/** Forgets roles, menu buttons and generated routes (spec §4 reset). */
export function resetSessionStore(): void {
  useSessionStore.setState({ ...empty });
}
