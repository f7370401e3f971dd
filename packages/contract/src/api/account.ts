import { z } from 'zod';
import { LIMITS, v } from '../validation';
import { ownProofFields } from './uaa';

/** A blank optional text field is sent as "" by forms: treat it as "not given". */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === '' ? null : value))
    .nullish();

/**
 * The signed-in user's own details (spec §7 updateSysUserDetail); roles and status are not here.
 * A field that is not sent keeps its value; a new e-mail or mobile takes the proof fields.
 */
export const updateSysUserDetailSchema = z.object({
  nickname: z
    .string({ error: 'validation.required' })
    .trim()
    .min(LIMITS.nickname.min)
    .max(LIMITS.nickname.max)
    .optional(),
  email: z.union([z.literal('').transform(() => null), v.email()]).nullish(),
  mobile: z.union([z.literal('').transform(() => null), v.mobile()]).nullish(),
  geographic: optionalText(200),
  address: optionalText(200),
  profile: optionalText(1000),
  avatar: optionalText(500),
  ...ownProofFields,
});
export type UpdateSysUserDetailBody = z.input<typeof updateSysUserDetailSchema>;
/** The details a user edits of themself (the profile form's fields; their columns' names too). */
export const SYS_USER_DETAIL_FIELDS = [
  'nickname',
  'email',
  'mobile',
  'geographic',
  'address',
  'profile',
  'avatar',
] as const;

/**
 * Spec §7 updatePassword: `password` is the current one (the console's form calls it
 * oldPassword, and either name is accepted), `id` the user's own id.
 */
export const updatePasswordSchema = z
  .object({
    id: z
      .string({ error: 'validation.required' })
      .trim()
      .regex(/^\d+$/, { error: 'validation.invalid' }),
    password: z.string().min(1).max(LIMITS.password.max).optional(),
    oldPassword: z.string().min(1).max(LIMITS.password.max).optional(),
    newPassword: v.password(),
  })
  .superRefine((body, context) => {
    if (body.password === undefined && body.oldPassword === undefined) {
      context.addIssue({ code: 'custom', path: ['oldPassword'], message: 'validation.required' });
    }
  });
export type UpdatePasswordBody = z.input<typeof updatePasswordSchema>;

/** One of the signed-in user's own sessions (profile → Sessions). */
export const mySessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  grantType: z.string(),
  /** The session this request came from. */
  current: z.boolean(),
});
export type MySession = z.infer<typeof mySessionSchema>;

export const sessionIdSchema = z.object({
  id: z.uuid({ error: 'validation.invalid' }),
});
export const signedOutSchema = z.object({ count: z.number().int() });
