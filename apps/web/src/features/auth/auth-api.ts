import type {
  CaptchaSent,
  RegisterAccountBody,
  Registered,
  RetrievePasswordBody,
  TenantOption,
} from '@shuili/contract';
import { http } from '../../lib/http';

/** The sign-in area's calls of spec §7 (the token endpoint itself is in lib/oauth). */
export const authApi = {
  /** The tenants an account (username, email or mobile) belongs to. */
  queryTenantUser: (userInfo: string, signal?: AbortSignal) =>
    http.get<TenantOption[]>('/api/admin/sysuser/queryTenantUser', {
      params: { userInfo },
      signal,
      // A lookup for a half-typed name is not worth a toast; the select says "no tenant" instead.
      silent: true,
    }),

  getSmsCaptcha: (mobile: string, tenantCode?: string) =>
    http.get<CaptchaSent>('/api/account/captcha/getSmsCaptcha', { params: { mobile, tenantCode } }),

  getEmailCaptcha: (tenantCode: string, email: string) =>
    http.get<CaptchaSent>('/api/account/captcha/getEmailCaptcha', {
      params: { tenantCode, email },
    }),

  registerAccount: (body: RegisterAccountBody) =>
    http.post<Registered>('/api/admin/sysuser/registerAccountInitial', {
      data: body,
      quietFieldErrors: true,
    }),

  retrievePassword: (body: RetrievePasswordBody) =>
    http.post<unknown>('/api/account/sysuserdetail/retrievePassword', {
      data: body,
      quietFieldErrors: true,
    }),

  /** Spec §7 "an extra call after login": its answer is not used. */
  registerNewSession: () =>
    http.post<unknown>('/api/admin/sysuser/registerNewSession', { silent: true }),
};
