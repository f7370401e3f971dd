import { TOAST_MS } from '@shuili/contract';
import { fetchSession } from '../core/session';
import { resetSessionStore, useSessionStore } from '../core/session-store';
import { setActiveRole } from '../lib/auth-storage';
import { feedback } from '../lib/feedback';
import { tagsView } from './tags-view-store';

let switching = false;

/**
 * Spec §4 role switch, loaded when a role is chosen: the role is stored as "<role>-token" (the
 * role-code header every call sends), then user info, the menu authority and the routes are
 * loaded for it. Answers how to put the new session in place, which the caller does once the
 * workbench is open: applied while a screen the role may lack is still open, the route guard
 * would send the user to /404 first. A failure keeps the role the user had.
 */
export async function switchRole(role: string): Promise<(() => void) | undefined> {
  const { activeRole, roles } = useSessionStore.getState();
  if (switching || !activeRole || role === activeRole || !roles.includes(role)) return undefined;
  switching = true;
  try {
    setActiveRole(role);
    const next = await fetchSession();
    return () => {
      // Tab views cleared; routes reset (the old role's cached answers and menu choice go with
      // them); then the new role's user info, menu and routes.
      tagsView.reset();
      resetSessionStore();
      useSessionStore.setState(next);
    };
  } catch (error) {
    setActiveRole(activeRole);
    feedback.error((error as Error).message, TOAST_MS.error / 1000);
    return undefined;
  } finally {
    switching = false;
  }
}
