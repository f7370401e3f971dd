import type { Lang } from '@shuili/contract';

/** Who is calling: the bearer token's user, with their live roles and zones (http/guard.ts). */
export interface AuthContext {
  userId: string;
  username: string;
  tenantId: string;
  tenantCode: string;
  roles: string[];
  /** The role the caller acts as (role-code header), always one of `roles`. */
  activeRole: string;
  sessionId: string;
  /**
   * The zones the caller is confined to (with the zones below them), null for the whole tenant.
   * Passing the AuthContext as the scope of `db.tenant` applies them (tenancy.sql).
   */
  zoneIds: string[] | null;
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
