import type { SysUser, UpdatePasswordBody, UpdateSysUserDetailBody } from '@shuili/contract';
import { http } from '../../lib/http';

/** Spec §7 "User detail": the signed-in user's own details and password. */
export const profileApi = {
  updateSysUserDetail: (body: UpdateSysUserDetailBody) =>
    http.put<SysUser>('/api/account/sysuserdetail/updateSysUserDetail', {
      data: body,
      quietFieldErrors: true,
    }),

  /**
   * Spec §7: success is the answer's message 'success'. The client resolves only for a 200
   * envelope with body code 200, and the server answers that with message 'success' and nothing
   * else, so a resolved call is the 'success' answer; every other answer rejects with its message.
   * The dialog reports failures itself (spec §8: a 2 s warning), hence `silent`.
   */
  updatePassword: (body: UpdatePasswordBody) =>
    http.put<null>('/api/account/sysuserdetail/updatePassword', { data: body, silent: true }),
};
