/**
 * Spec §2: the paths anyone may open without signing in, each with its page (route-table.tsx).
 * The spec's /search and /traceHome are not the console's: see SERVER_PAGES.
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

/**
 * Spec §2's open /traceHome and /search: the server answers them with the small public trace
 * page (trace-home.html, no console code). The console never renders them: a link to one inside
 * the console loads that page for real (UnknownPath).
 */
export const SERVER_PAGES: readonly string[] = ['/traceHome', '/search'];

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
