import type { ResetLinkAccount, ResetPasswordByLinkBody } from '@shuili/contract';
import { http } from '../../../lib/http';

/** The calls of a password-reset link's page (the link retrievePassword e-mails, spec §7). */
export const resetLinkApi = {
  /** The account a reset link (from retrievePassword's e-mail) is for, while it works. */
  checkResetLink: (token: string) =>
    http.post<ResetLinkAccount>('/api/account/sysuserdetail/checkResetLink', {
      data: { token },
      // The page says itself when a link no longer works.
      silent: true,
    }),

  resetPasswordByLink: (body: ResetPasswordByLinkBody) =>
    http.post<null>('/api/account/sysuserdetail/resetPasswordByLink', {
      data: body,
      quietFieldErrors: true,
    }),
};
