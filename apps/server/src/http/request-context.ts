import type { Lang } from '@shuili/contract';

/** Who is calling, established by the bearer token (see authenticate.ts). */
export interface AuthContext {
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
 * What a route needs: open to anyone, any signed-in user, or a permission code that the
 * caller's active role must hold (ROLE_ADMIN holds all inside its tenant).
 */
export type Permission = 'public' | 'authenticated' | { code: string };

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    permission?: Permission;
  }
}

/** The caller of an authenticated route (the guard has run, so it is always there). */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new Error('authOf() called on a route that is not authenticated');
  return request.auth;
}
