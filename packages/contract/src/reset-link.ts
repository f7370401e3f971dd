// A module of its own, without schemas: the forgot-password page reads it without loading zod.

/**
 * A password-reset link: the forgot-password page with the token as a query parameter (the
 * page's form then sets the new password). It works once, for `minutes`.
 */
export const RESET_LINK = { path: '/forgotpassword', param: 'resetToken', minutes: 30 } as const;
