import { LANGUAGE_COOKIE, ROLE_ADMIN, ROLE_CODE_HEADER, resolveLang } from '@shuili/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import type { AccessTokens } from '../modules/uaa/access-token';
import type { UrlGrantService } from '../modules/authority/url-grant.service';
import { AccessChecks, parseAccessChange } from '../modules/uaa/access-checks';
import { SessionChecks } from '../modules/uaa/session-checks';
import { sessionRepo, type SessionLimits } from '../modules/uaa/session.repo';
import { AppError } from './app-error';
import type { AuthContext } from './request-context';
import type { RouteEntry } from './route-table';

const unauthorized = (key: string, code: number, error?: string) =>
  new AppError(401, key, {
    code,
    oauthError: error,
    headers: { 'www-authenticate': error ? `Bearer error="${error}"` : 'Bearer' },
  });

/**
 * Picks the role the caller acts as: the role-code header when they hold it now, else their
 * first. `roles` are the live roles (AccessChecks), never the token's.
 */
function activeRoleOf(request: FastifyRequest, roles: string[]): string {
  const asked = request.headers[ROLE_CODE_HEADER];
  const wanted = Array.isArray(asked) ? asked[0] : asked;
  if (wanted) {
    // The role-switch of spec §4 stores "<role>-token"; accept both spellings.
    const role = wanted.endsWith('-token') ? wanted.slice(0, -'-token'.length) : wanted;
    if (!roles.includes(role))
      throw new AppError(403, 'auth.roleNotHeld', { params: { role: role.slice(0, 64) } });
    return role;
  }
  return roles[0] ?? '';
}

/**
 * Every request: its language, then, unless the route is public, the bearer token, the live
 * session behind it, the caller's live access (roles, zones, tenant state: read from the
 * database, not the token, so an administrator's change holds at the next request), the active
 * role and the route's permission.
 */
export function registerGuard(
  app: FastifyInstance,
  deps: { db: Database; tokens: AccessTokens; grants: UrlGrantService; limits?: SessionLimits },
) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('auth', null);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);

  // Live sessions and access are remembered while the database's announcements are heard.
  const sessions = new SessionChecks(deps.db, undefined, deps.limits);
  const access = new AccessChecks(deps.db);
  app.addHook('onReady', () => Promise.all([sessions.start(), access.start()]).then(() => {}));
  app.addHook('onClose', () => Promise.all([sessions.stop(), access.stop()]).then(() => {}));
  // Grants another node changed are announced (tenant-wide): this node's cached grants go with
  // them. A user's roles or zones, or a device moved, change no role's grants.
  access.watch((payload) => {
    const change = parseAccessChange(payload);
    if (change.kind === 'tenant' || change.kind === 'everything') deps.grants.invalidate();
  });

  // A route that forgets to say who may call it must not start: fail at registration.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const permission = route.config?.permission;
    if (!permission) throw new Error(`route ${route.method} ${route.url} declares no permission`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Fastify adds a HEAD twin of every GET; the table lists the GET.
    const served = methods.filter((method) => method !== 'HEAD');
    if (served.length > 0)
      routeTable.push({ methods: served, url: route.url, permission, schema: route.schema });
    if (permission === 'granted') {
      deps.grants.register({
        method: methods.filter((method) => method !== 'HEAD').join(','),
        url: route.url,
        description: (route.schema as { summary?: string } | undefined)?.summary ?? '',
      });
    }
  });

  app.addHook('onRequest', async (request) => {
    const cookieLang = request.cookies?.[LANGUAGE_COOKIE];
    request.lang = resolveLang(cookieLang, request.headers['accept-language']);
    request.auth = null;
    const permission = request.routeOptions.config?.permission;
    if (!permission || permission === 'public') return;

    const header = request.headers.authorization;
    if (!header?.toLowerCase().startsWith('bearer '))
      throw unauthorized('auth.signInRequired', 401);
    const verified = await deps.tokens.verify(header.slice(7).trim());
    if (!verified.ok) {
      throw verified.reason === 'expired'
        ? unauthorized('auth.tokenExpired', 50014, 'invalid_token')
        : unauthorized('auth.invalidToken', 50008, 'invalid_token');
    }
    const claims = verified.claims;
    const session = await sessions.check(claims.sessionId);
    if (!session.ok) throw unauthorized('auth.sessionRevoked', 50012, 'invalid_token');
    if (session.stale) {
      // Online-user lists read last_seen_at; a minute's precision is enough, so write rarely.
      void deps.db
        .system((sql) =>
          sessionRepo.touch(sql, claims.sessionId, request.ip, request.headers['user-agent']),
        )
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'could not record session activity'),
        );
    }
    const live = await access.of(claims.userId, claims.tenantId);
    // A suspended tenant or a disabled account: the session is over (their hooks also end it).
    if (!live?.tenantActive || !live.userActive)
      throw unauthorized('auth.sessionRevoked', 50012, 'invalid_token');
    const auth: AuthContext = {
      userId: claims.userId,
      username: claims.username,
      tenantId: claims.tenantId,
      tenantCode: claims.tenantCode,
      roles: live.roles,
      activeRole: activeRoleOf(request, live.roles),
      sessionId: claims.sessionId,
      zoneIds: live.zoneIds,
      projectIds: live.projectIds,
    };
    request.auth = auth;
    if (
      permission === 'granted' &&
      auth.activeRole !== ROLE_ADMIN &&
      !(await deps.grants.allows(auth.tenantId, auth.activeRole, request.routeOptions.url!))
    ) {
      throw new AppError(403, 'auth.forbidden');
    }
  });
  return { sessions, access };
}
