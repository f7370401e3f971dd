/** Business constants and limits from spec §9, shared by server and web. */
export const ROLE_ADMIN = 'ROLE_ADMIN';
export const ROLE_OPERATOR = 'ROLE_OPERATOR';
/** A card-swipe billing service desk: households, cards, recharges and refunds (issue 20). */
export const ROLE_CASHIER = 'ROLE_CASHIER';
export const TOKEN_SUFFIX = '-token';
export const MOBILE_BREAKPOINT_PX = 992;
export const SIDEBAR_WIDTH_PX = 230;
export const PASSWORD_INPUT_MAX = 31;
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
export const ORG_LIST_PAGE_SIZE = 10000;
export const TOAST_MS = { warning: 2000, error: 5000, success: 2000 } as const;
export const FUZZY_SEARCH = {
  threshold: 0.4,
  weights: { title: 0.7, pinyin: 0.3, path: 0.3 },
  minMatchCharLength: 1,
  maxPatternLength: 32,
} as const;
export const CONTEXT_MENU_WIDTH_PX = 105;
export const TAG_SCROLL_PADDING_PX = 4;
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const START_TIME_WINDOW_MS = 7776e6;

/** The first-party OAuth client of the console (spec §7: client_id browser, scope ui). */
export const BROWSER_CLIENT_ID = 'browser';
export const BROWSER_SCOPE = 'ui';
/**
 * The console is a public first-party client: its "secret" ships in every browser, so it is a
 * well-known value (spec §7's fixed Basic credentials), overridable on the server for odd setups.
 */
export const DEFAULT_BROWSER_CLIENT_SECRET = 'browser';

/** Cookie and header names the browser and server agree on. */
export const TOKEN_COOKIE = 'token';
export const REFRESH_COOKIE = 'refresh_token';
export const LANGUAGE_COOKIE = 'language';
export const ROLE_CODE_HEADER = 'x-role-code';

/** Captcha codes: six digits, valid five minutes, one send per minute per recipient. */
export const CAPTCHA = { length: 6, ttlSeconds: 300, resendSeconds: 60, maxAttempts: 5 } as const;
