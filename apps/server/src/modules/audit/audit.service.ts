import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database';
import { AppError } from '../../http/app-error';
import { describeAppError } from '../../http/error-handler';
import { actionOf, isWrite } from './audit-route';

export interface LoginAttempt {
  tenantCode: unknown;
  username: unknown;
  grantType: unknown;
  ip: string;
  userAgent: string | undefined;
  error?: unknown;
}

const text = (value: unknown, max: number) =>
  typeof value === 'string' ? value.slice(0, max) : null;

/** The id a write names, for the log's "target" column (body or query, one or several). */
function targetOf(request: FastifyRequest): string | null {
  const sources = [request.body, request.query] as Array<Record<string, unknown> | undefined>;
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const key of [
      'id',
      'ids',
      'userId',
      'roleId',
      'urlId',
      'username',
      'regionCode',
      'clientId',
      'tenantCode',
    ]) {
      const value = source[key];
      if (value !== undefined && value !== null)
        return `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`.slice(0, 500);
    }
  }
  return null;
}

/**
 * The operation and login logs: every change made through the API (a call by a signed-in user
 * to a route that writes, see audit-route.ts) and every sign-in attempt that named a known tenant. Written after the answer
 * has gone, so logging never slows or fails a call; a write that cannot be logged is reported.
 */
export class AuditService {
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Records writes of signed-in callers as their answers go out. */
  register(app: FastifyInstance) {
    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = request.auth;
      if (!auth || !isWrite(request)) return;
      const status = reply.statusCode;
      const failed = status >= 400;
      const error = (reply as FastifyReply & { auditError?: string }).auditError;
      void this.db
        .tenant(auth, (sql) =>
          sql.query(
            `INSERT INTO operation_log (tenant_id, username, action, method, url, target, ip, result, status, message, duration_ms, created_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            [
              auth.tenantId,
              auth.username,
              actionOf(request).slice(0, 255),
              request.method,
              (request.routeOptions.url ?? request.url.split('?')[0]!).slice(0, 255),
              targetOf(request),
              request.ip,
              failed ? 'failure' : 'success',
              status,
              failed ? (error ?? null) : null,
              Math.round(reply.elapsedTime),
              auth.userId,
            ],
          ),
        )
        .catch((failure: unknown) =>
          this.log.error({ err: failure }, 'could not write the operation log'),
        );
    });
    // Keeps the translated reason of a failed write for the log.
    app.addHook('onError', async (request, reply, error) => {
      if (request.auth && error instanceof AppError) {
        (reply as FastifyReply & { auditError?: string }).auditError = describeAppError(
          request,
          error,
          'en',
        ).message.slice(0, 1000);
      }
    });
  }

  /** Records a password or mobile sign-in (refreshes are not sign-ins). */
  async recordLogin(request: FastifyRequest, attempt: LoginAttempt): Promise<void> {
    if (attempt.grantType !== 'password' && attempt.grantType !== 'mobile') return;
    const tenantCode = text(attempt.tenantCode, 64);
    if (!tenantCode) return;
    const message =
      attempt.error instanceof AppError
        ? describeAppError(request, attempt.error, 'en').message
        : attempt.error
          ? 'error'
          : null;
    try {
      await this.db.system((sql) =>
        sql.query(
          `INSERT INTO login_log (tenant_id, username, grant_type, ip, user_agent, result, message)
           SELECT id, $2, $3, $4, $5, $6, $7 FROM tenant WHERE tenant_code = $1`,
          [
            tenantCode.trim(),
            text(attempt.username, 100) ?? '',
            attempt.grantType,
            attempt.ip,
            text(attempt.userAgent, 512),
            attempt.error ? 'failure' : 'success',
            message?.slice(0, 255) ?? null,
          ],
        ),
      );
    } catch (failure) {
      this.log.error({ err: failure }, 'could not write the login log');
    }
  }
}
