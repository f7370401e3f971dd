/**
 * Spec §2: the paths anyone may open without signing in, each with its page (route-table.tsx).
 * The spec's /search and /traceHome come with traceability's pages; until then they are unknown
 * paths like any other.
 */
export const OPEN_PATHS: readonly string[] = [
  '/login',
  '/auth-redirect',
  '/forgotpassword',
  '/register',
  '/thirdLogin',
  '/404',
  '/401',
];

export const HOME_PATH = '/home/workbench';

/** Where the tags view's refresh goes for a moment: /redirect{fullPath} (spec §2). */
export const REDIRECT_PREFIX = '/redirect';

/** The sign-in page, remembering where the user meant to go. */
export function loginPath(target: string): string {
  return `/login?redirect=${encodeURIComponent(target)}`;
}

/**
 * A redirect target from a query string, if it is a path inside this app. Anything else (another
 * origin, a protocol-relative URL, the sign-in page itself) is ignored to avoid open redirects.
 */
export function safeRedirect(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return undefined;
  }
  if (value === '/login' || value.startsWith('/login?')) return undefined;
  return value;
}
