import { z } from 'zod';

import {
  LIMITS,
  MOBILE_PATTERN,
  normalizeMobile,
  TENANT_CODE_PATTERN,
  CAPTCHA_PATTERN,
} from './limits';

export * from './limits';

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
