import type { MfaEnrolment, MfaStatus, MySession, RecoveryCodes } from '@shuili/contract';
import { http } from '../../lib/http';

/** The signed-in user's second factor and sessions (profile → security). */
export const securityApi = {
  mfaStatus: () => http.get<MfaStatus>('/api/account/mfa/queryMfaStatus'),
  startEnrolment: (currentPassword: string) =>
    http.post<MfaEnrolment>('/api/account/mfa/startEnrolment', {
      data: { currentPassword },
      quietFieldErrors: true,
    }),
  confirmEnrolment: (code: string) =>
    http.post<RecoveryCodes>('/api/account/mfa/confirmEnrolment', {
      data: { code },
      quietFieldErrors: true,
    }),
  renewRecoveryCodes: (code: string) =>
    http.post<RecoveryCodes>('/api/account/mfa/renewRecoveryCodes', {
      data: { code },
      quietFieldErrors: true,
    }),
  disable: (currentPassword: string, code: string) =>
    http.post<null>('/api/account/mfa/disableMfa', {
      data: { currentPassword, code },
      quietFieldErrors: true,
    }),

  sessions: () => http.get<MySession[]>('/api/account/session/queryMySessions'),
  signOutSession: (id: string) =>
    http.post<{ count: number }>('/api/account/session/signOutSession', { data: { id } }),
  signOutOthers: () => http.post<{ count: number }>('/api/account/session/signOutOtherSessions'),
  signOutEverywhere: () => http.post<{ count: number }>('/api/account/session/signOutEverywhere'),
};
