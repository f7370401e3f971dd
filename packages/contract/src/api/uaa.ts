import { z } from 'zod';
import { BROWSER_SCOPE } from '../constants';
import { LIMITS, v } from '../validation';

/**
 * Session and login calls of spec §7. The token endpoint takes its parameters in the query
 * string and/or an application/x-www-form-urlencoded body; both are merged before parsing.
 */
const clientFields = {
  scope: z.string().trim().max(64).default(BROWSER_SCOPE),
  client_id: z.string().trim().max(64).optional(),
};

/**
 * The second factor of a user who has one (or must enrol): a 6-digit TOTP code or one of the
 * recovery codes (xxxxx-xxxxx). Without it such a user is answered mfa_required.
 */
const totpCodeField = {
  totpCode: z.string().trim().min(1).max(32).optional(),
};

/**
 * Proof that the person, not only a token, asks for a change to how the account is recovered
 * (e-mail, mobile, second factor): the current password, or for a user who has a second factor a
 * code of the authenticator (or a recovery code) instead.
 */
export const ownProofFields = {
  currentPassword: z.string().min(1).max(LIMITS.password.max).optional(),
  ...totpCodeField,
};

export const passwordGrantSchema = z.object({
  grant_type: z.literal('password'),
  type: z.literal('account').default('account'),
  tenantCode: v.tenantCode(),
  username: v.userInfo(),
  password: v.password(),
  /** Once an account has had too many failed sign-ins: the code of getSignInCaptcha. */
  captcha: v.captcha().optional(),
  ...totpCodeField,
  ...clientFields,
});

export const mobileGrantSchema = z.object({
  grant_type: z.literal('mobile'),
  type: z.literal('mobile').default('mobile'),
  tenantCode: v.tenantCode(),
  mobile: v.mobile(),
  smsCaptcha: v.captcha(),
  ...totpCodeField,
  ...clientFields,
});

export const refreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  /** Optional: the browser sends it in the HttpOnly refresh cookie instead. */
  refresh_token: z.string().trim().min(1).max(512).optional(),
  ...clientFields,
});

export const GRANT_TYPES = ['password', 'mobile', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  /** Seconds the refresh token lives (the refresh cookie's Max-Age). */
  refresh_expires_in: z.number().int(),
  scope: z.string(),
  tenantCode: z.string(),
  jti: z.string(),
  /** Only when this sign-in confirmed a second-factor enrolment: one-time codes, shown once. */
  recovery_codes: z.array(z.string()).optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const sysUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  roles: z.array(z.string()),
  /**
   * The names of the roles held, in the order of `roles`: what the role switch of spec §4 lists.
   * (A list, not a record: the sign-in page would otherwise download zod's record type.)
   */
  roleNames: z.array(z.string()),
  activeRole: z.string(),
  avatar: z.string().nullable(),
  tenantCode: z.string(),
  tenantName: z.string(),
  /** The platform tenant administers tenants and shared data (regions, app clients). */
  platform: z.boolean(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  geographic: z.string().nullable(),
  address: z.string().nullable(),
  profile: z.string().nullable(),
});
export type SysUser = z.infer<typeof sysUserSchema>;

export interface MenuNode {
  id: string;
  menuCode: string;
  menuName: string;
  menuIcon: string | null;
  menuPath: string;
  menuComponent: string | null;
  menuSequence: number;
  menuParent: string | null;
  children: MenuNode[];
}
export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    menuCode: z.string(),
    menuName: z.string(),
    menuIcon: z.string().nullable(),
    menuPath: z.string(),
    menuComponent: z.string().nullable(),
    menuSequence: z.number(),
    menuParent: z.string().nullable(),
    children: z.array(menuNodeSchema),
  }),
);

export const authorityQuerySchema = z.object({ username: v.username().optional() });
export const authoritySchema = z.object({
  menu: z.array(menuNodeSchema),
  menuButton: z.array(z.string()),
});
export type Authority = z.infer<typeof authoritySchema>;

export const tenantUserQuerySchema = z.object({ userInfo: v.userInfo() });
export const tenantOptionSchema = z.object({ tenantCode: z.string(), tenantName: z.string() });
export type TenantOption = z.infer<typeof tenantOptionSchema>;

export const smsCaptchaQuerySchema = z.object({
  mobile: v.mobile(),
  tenantCode: v.tenantCode().optional(),
});
/** What a captcha send answers: seconds until the code expires and until another may be sent. */
export const captchaSentSchema = z.object({ expiresIn: z.number(), resendIn: z.number() });
export type CaptchaSent = z.infer<typeof captchaSentSchema>;

/** Asks for the code a password sign-in needs after too many failures, sent to the account. */
export const signInCaptchaQuerySchema = z.object({
  tenantCode: v.tenantCode(),
  username: v.userInfo(),
});

export const compareCaptchaQuerySchema = z.object({ mobile: v.mobile(), smsCaptcha: v.captcha() });

export const registerAccountSchema = z.object({
  tenantName: v.tenantName(),
  username: v.username(),
  password: v.password(),
  email: v.email(),
  mobile: v.mobile(),
  smsCaptcha: v.captcha(),
  nickname: z.string().trim().max(64).optional(),
});
export const registeredSchema = z.object({ tenantCode: z.string(), username: z.string() });
export type RegisterAccountBody = z.input<typeof registerAccountSchema>;
export type Registered = z.infer<typeof registeredSchema>;

/** Without tenantCode the code is for the address in every tenant (a reset link by address). */
export const emailCaptchaQuerySchema = z.object({
  tenantCode: v.tenantCode().optional(),
  email: v.email(),
});
/** The console's two-step reset: the e-mailed code and the new password at once. */
export const retrievePasswordSchema = z.object({
  tenantCode: v.tenantCode(),
  email: v.email(),
  charCaptcha: v.captcha(),
  newPassword: v.password(),
});
export type RetrievePasswordBody = z.input<typeof retrievePasswordSchema>;

export const sessionInfoSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});

export const orgSchema = z.object({
  id: z.string(),
  orgName: z.string(),
  orgType: z.string().nullable(),
  orgDescription: z.string().nullable(),
  orgSequence: z.number(),
  orgParent: z.string().nullable(),
});
export type Org = z.infer<typeof orgSchema>;

export const pageQuerySchema = z.object({
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(10000).default(20),
});

/** Second factor (TOTP, RFC 6238): enrolment and status. */
export const MFA_POLICIES = ['optional', 'required'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

export const mfaTicketSchema = z.object({
  ticket: z.string({ error: 'validation.required' }).trim().min(1).max(512),
});
export const mfaEnrolmentSchema = z.object({
  /** Base32 secret, for typing into an authenticator by hand. */
  secret: z.string(),
  /** otpauth://totp/Shuili:<tenant>/<user>?secret=...&issuer=Shuili, shown as a QR code. */
  otpauthUrl: z.string(),
});
export type MfaEnrolment = z.infer<typeof mfaEnrolmentSchema>;

export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  policy: z.enum(MFA_POLICIES),
  recoveryCodesLeft: z.number().int(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

const totpCode = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .regex(/^\d{6}$/, { error: 'validation.totpCode' });

/** Turning the second factor on starts with the proof of the current password. */
export const mfaStartSchema = z.object(ownProofFields);
export const mfaConfirmSchema = z.object({ code: totpCode() });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Turning the second factor off takes the current password and a code (or a recovery code). */
export const mfaDisableSchema = z.object({
  currentPassword: z.string({ error: 'validation.required' }).min(1).max(LIMITS.password.max),
  code: z.string({ error: 'validation.required' }).trim().min(1).max(32),
});
