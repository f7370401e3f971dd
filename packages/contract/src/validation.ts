import { z } from 'zod';

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

/** A string that says "required" when missing and "invalid" when of another type. */
const requiredString = () =>
  z.string({
    // Only the type check gets this message; length and format checks keep their own.
    error: (issue) =>
      issue.code === 'invalid_type'
        ? issue.input === undefined
          ? 'validation.required'
          : 'validation.invalid'
        : undefined,
  });

/** Message keys are translated by the server (messages.ts) and the web alike. */
export const v = {
  tenantCode: () =>
    z
      .string({ error: 'validation.required' })
      .trim()
      .min(LIMITS.tenantCode.min)
      .max(LIMITS.tenantCode.max)
      .regex(TENANT_CODE_PATTERN, { error: 'validation.tenantCode' }),
  tenantName: () => requiredString().trim().min(LIMITS.tenantName.min).max(LIMITS.tenantName.max),
  username: () => requiredString().trim().min(LIMITS.username.min).max(LIMITS.username.max),
  userInfo: () => requiredString().trim().min(LIMITS.userInfo.min).max(LIMITS.userInfo.max),
  /** Passwords are never trimmed (spec §5). */
  password: () => requiredString().min(LIMITS.password.min).max(LIMITS.password.max),
  email: () =>
    requiredString()
      .trim()
      .max(LIMITS.email.max)
      .pipe(z.email({ error: 'validation.email' })),
  mobile: () =>
    z
      .string({ error: 'validation.required' })
      .trim()
      .regex(MOBILE_PATTERN, { error: 'validation.mobile' })
      .transform(normalizeMobile),
  captcha: () => requiredString().trim().regex(CAPTCHA_PATTERN, { error: 'validation.captcha' }),
};
