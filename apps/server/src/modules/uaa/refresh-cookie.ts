import { REFRESH_COOKIE } from '@shuili/contract';
import type { FastifyReply } from 'fastify';

/** The browser sends its refresh token to the token endpoints only. */
export const REFRESH_COOKIE_PATH = '/api/uaa/oauth';

/** Makes the browser forget its refresh token once the session it names has ended. */
export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
}
