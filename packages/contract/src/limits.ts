// Free of zod, so the sign-in page can use these without downloading the schema library.

/** Length limits of spec §5, used by the server's schemas and the web's form rules alike. */
export const LIMITS = {
  tenantName: { min: 1, max: 64 },
  tenantCode: { min: 2, max: 32 },
  userInfo: { min: 3, max: 100 },
  username: { min: 3, max: 64 },
  password: { min: 6, max: 31 },
  nickname: { min: 1, max: 64 },
  email: { max: 254 },
} as const;

/**
 * A mobile number with its country code prefix, e.g. "+86 13800138000" or "+8613800138000".
 * Spaces and dashes between digit groups are allowed; the canonical form removes them.
 */
export const MOBILE_PATTERN = /^\+[1-9]\d{0,3}[ -]?\d{4,14}$/;
export const TENANT_CODE_PATTERN = /^[a-z][a-z0-9_-]*$/;
export const CAPTCHA_PATTERN = /^\d{6}$/;

export function normalizeMobile(mobile: string): string {
  return mobile.trim().replace(/[ -]/g, '');
}
