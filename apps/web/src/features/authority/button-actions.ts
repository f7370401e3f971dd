/** Button actions the console names in every language; other buttons show the server's name. */
export const BUTTON_ACTIONS = [
  'add',
  'edit',
  'delete',
  'export',
  'status',
  'authorize',
  'users',
  'grant',
  'resetPassword',
  'remove',
  'assign',
] as const;
export type ButtonAction = (typeof BUTTON_ACTIONS)[number];

export function isKnownAction(action: string): action is ButtonAction {
  return (BUTTON_ACTIONS as readonly string[]).includes(action);
}
