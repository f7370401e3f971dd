/** Spec §4 navbar switch: one parent menu instead of all, and the post the user acts in. */
export interface MenuChoice {
  parentId?: string;
  postCode?: string;
}

/** A parent menu the switch offers; menuName is a route.* key. */
export interface ParentMenuOption {
  id: string;
  menuCode: string;
  menuName: string;
}

export interface PostOption {
  id: string;
  postCode: string;
  postName: string;
}

// Session storage: a reload keeps the choice, a new tab or browser session starts with all menus.
const STORAGE_KEY = 'shuili.menuChoice';

interface StoredChoice extends MenuChoice {
  /** Whose choice it is: tenant, user and active role. Anybody else starts with all menus. */
  owner: string;
}

/** Whose menu a choice narrows: a choice never passes to another user, tenant or role. */
export function ownerOf(user: { tenantCode: string; id: string }, activeRole: string): string {
  return `${user.tenantCode}/${user.id}/${activeRole}`;
}

/** Reads a stored choice if it is the owner's; anything malformed counts as no choice. */
export function parseChoice(text: string | null, owner: string): MenuChoice | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object') return undefined;
    const { owner: stored, parentId, postCode } = value as Record<string, unknown>;
    if (stored !== owner) return undefined;
    const choice: MenuChoice = {};
    if (typeof parentId === 'string' && parentId) choice.parentId = parentId;
    if (typeof postCode === 'string' && postCode) choice.postCode = postCode;
    return isEmptyChoice(choice) ? undefined : choice;
  } catch {
    return undefined;
  }
}

export function isEmptyChoice(choice: MenuChoice): boolean {
  return !choice.parentId && !choice.postCode;
}

/**
 * The stored choice without what the options no longer offer (a menu taken from the role, a
 * post the user left).
 */
export function validChoice(
  choice: MenuChoice,
  parents: readonly ParentMenuOption[],
  posts: readonly PostOption[],
): MenuChoice {
  const valid: MenuChoice = {};
  if (choice.parentId && parents.some((menu) => menu.id === choice.parentId)) {
    valid.parentId = choice.parentId;
  }
  if (choice.postCode && posts.some((post) => post.postCode === choice.postCode)) {
    valid.postCode = choice.postCode;
  }
  return valid;
}

export function readChoice(owner: string): MenuChoice | undefined {
  return parseChoice(sessionStorage.getItem(STORAGE_KEY), owner);
}

export function writeChoice(owner: string, choice: MenuChoice): void {
  if (isEmptyChoice(choice)) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...choice, owner } as StoredChoice));
}

export function clearChoice(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
