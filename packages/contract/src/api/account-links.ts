import { z } from 'zod';
import { v } from '../validation';

// Account calls that the sign-in page never makes, kept apart from uaa.ts so that their schemas
// are not part of the sign-in page's download (zod schemas are built where their module loads).

/**
 * retrievePassword's params as spec §7 sends them (email and charCaptcha, the e-mailed code):
 * without newPassword a one-time reset link is e-mailed; with it (and tenantCode) the password
 * is set at once, as the console's form does.
 */
export const retrievePasswordParamsShape = {
  tenantCode: v.tenantCode().optional(),
  email: v.email(),
  charCaptcha: v.captcha(),
  newPassword: v.password().optional(),
};

/** The token of a reset link (decimal digits, see reset-link.service.ts). */
export const resetLinkTokenSchema = z.object({
  token: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1)
    .max(128)
    .regex(/^\d+$/, { error: 'validation.invalid' }),
});
/** The account a live reset link is for, shown on its page. */
export const resetLinkAccountSchema = z.object({
  tenantCode: z.string(),
  tenantName: z.string(),
  username: z.string(),
  expiresAt: z.string(),
});
export type ResetLinkAccount = z.infer<typeof resetLinkAccountSchema>;
export const resetPasswordByLinkSchema = resetLinkTokenSchema.extend({
  newPassword: v.password(),
});
export type ResetPasswordByLinkBody = z.input<typeof resetPasswordByLinkSchema>;

/** Spec §2 /thirdLogin?client=<clientId>: which app client's identity provider to sign in with. */
export const thirdLoginQuerySchema = z.object({
  clientId: z.string().trim().min(1).max(64).optional(),
});
/**
 * Where a third-party sign-in starts: the redirect URI configured for an app client with the
 * authorization_code grant, never an address the caller supplies. Null when none is configured.
 */
export const thirdLoginProviderSchema = z
  .object({ clientId: z.string(), url: z.string() })
  .nullable();
export type ThirdLoginProvider = z.infer<typeof thirdLoginProviderSchema>;
