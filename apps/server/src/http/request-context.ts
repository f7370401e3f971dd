import type { Lang } from '@shuili/contract';
import type { DeviceScope } from '../db/database';

/**
 * Who is calling: the bearer token's user, with their live roles and device scope
 * (http/guard.ts). The device scope (zones with the zones below them, bound projects; null: not
 * confined that way) is applied by passing the AuthContext as the scope of `db.tenant`.
 */
export interface AuthContext extends DeviceScope {
  userId: string;
  username: string;
  tenantId: string;
  tenantCode: string;
  roles: string[];
  /** The role the caller acts as (role-code header), always one of `roles`. */
  activeRole: string;
  sessionId: string;
}

/**
 * What a route needs: open to anyone, any signed-in user, or a grant of the route's URL to the
 * caller's active role (ROLE_ADMIN holds every URL inside its tenant). Every 'granted' route is
 * listed as a URL permission of every tenant (url-grants.ts), so none can be forgotten.
 */
export type Permission = 'public' | 'authenticated' | 'granted';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    permission?: Permission;
    /** Labels of the route's fields in every language, for validation messages. */
    fieldLabels?: Record<string, { label: Record<Lang, string> }>;
  }
}

/** The caller of an authenticated route (the guard has run, so it is always there). */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new Error('authOf() called on a route that is not authenticated');
  return request.auth;
}
