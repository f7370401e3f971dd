import { ROLE_ADMIN } from '@shuili/contract';
import { useSessionStore } from './session-store';

/**
 * Whether the user may press a menu button (spec §6): ROLE_ADMIN as the active role may press
 * every one; other roles those the authority call listed.
 */
export function mayPress(
  code: string,
  menuButtons: readonly string[],
  activeRole: string | undefined,
): boolean {
  return activeRole === ROLE_ADMIN || menuButtons.includes(code);
}

/** The hook screens ask before showing a button, e.g. usePermission('sysuser:add'). */
export function usePermission(code: string): boolean {
  return useSessionStore((state) => mayPress(code, state.menuButtons, state.activeRole));
}
