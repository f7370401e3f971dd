import type { Sql } from '../../db/database';
import type { EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { AppError } from '../../http/app-error';
import type { UrlGrantService } from '../authority/url-grant.service';
import { hashNewPassword } from '../account/password-policy';
import { provisionTenant, type NewUser } from './tenant-provisioning.service';

/**
 * Ends every session of a suspended tenant's users, in the suspension's own transaction: the
 * database announces each (migration 007), so every node refuses their tokens and closes their
 * browsers' live connections at once. Their devices are shut out by TenantSuspension.
 */
async function endSessionsOfTenants(sql: Sql, tenantIds: string[]) {
  await sql.query(
    `UPDATE user_session SET revoked_at = now(), revoke_reason = 'tenant_suspended'
      WHERE tenant_id = ANY($1::bigint[]) AND revoked_at IS NULL`,
    [tenantIds],
  );
}

/** A period that ends before it starts is refused, naming its end. */
function checkPeriod(values: Row) {
  if (
    values.startTime &&
    values.endTime &&
    new Date(String(values.startTime)) > new Date(String(values.endTime))
  ) {
    throw new AppError(400, 'validation.endBeforeStart', {
      fields: [{ field: 'endTime', key: 'validation.endBeforeStart' }],
    });
  }
}

/**
 * The first administrator of a new tenant, when the call names one: username and password come
 * together. Without them the tenant starts with no user, and addSysTenantUser gives it its
 * administrator later.
 */
async function firstAdministrator(values: Row): Promise<NewUser[]> {
  const { adminUsername, adminPassword } = values;
  if (adminUsername == null && adminPassword == null) return [];
  const missing =
    adminUsername == null ? 'adminUsername' : adminPassword == null ? 'adminPassword' : null;
  if (missing)
    throw new AppError(400, 'validation.required', {
      fields: [{ field: missing, key: 'validation.required' }],
    });
  return [
    {
      username: String(adminUsername),
      nickname: String(values.contact ?? adminUsername),
      passwordHash: await hashNewPassword(String(adminPassword), {
        field: 'adminPassword',
        username: String(adminUsername),
        tenantCode: String(values.tenantCode),
      }),
      email: (values.email as string | null) ?? null,
      roleCodes: ['ROLE_ADMIN'],
    },
  ];
}

/**
 * Tenants (platform tenant only): creating one provisions its default roles, menus,
 * dictionaries, URL list and first administrator (when given) in the same transaction; the
 * platform tenant and the caller's own tenant cannot be deleted or suspended; suspending one
 * ends its sessions.
 */
export function tenantHooks(grants: UrlGrantService): EntityHooks {
  return {
    async create(ctx, values) {
      checkPeriod(values);
      const users = await firstAdministrator(values);
      const { tenantId } = await provisionTenant(ctx.sql, {
        tenantCode: String(values.tenantCode),
        tenantName: String(values.tenantName),
        startTime: values.startTime ? new Date(String(values.startTime)) : null,
        endTime: values.endTime ? new Date(String(values.endTime)) : null,
        contact: (values.contact as string | null) ?? null,
        email: (values.email as string | null) ?? null,
        tel: (values.tel as string | null) ?? null,
        users,
      });
      await ctx.sql.query(
        'UPDATE tenant SET domain = $2, status = $3, mfa_policy = $4 WHERE id = $1',
        [tenantId, values.domain ?? null, values.status ?? 1, values.mfaPolicy ?? 'optional'],
      );
      await grants.syncCatalogue(ctx.sql, [tenantId]);
      return tenantId;
    },
    async beforeUpdate(ctx, id, values) {
      checkPeriod(values);
      if (id === ctx.auth.tenantId && values.status === 0)
        throw new AppError(409, 'conflict.platformTenant');
    },
    async afterUpdate(ctx, id, values) {
      if (values.status === 0) await endSessionsOfTenants(ctx.sql, [id]);
    },
    async beforeDelete(ctx, ids) {
      const { rows } = await ctx.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM tenant WHERE id = ANY($1::bigint[]) AND (is_platform OR id = $2)',
        [ids, ctx.auth.tenantId],
      );
      if (rows[0]!.n > 0) throw new AppError(409, 'conflict.platformTenant');
    },
    async afterStatus(ctx, ids, status) {
      if (status !== 0) return;
      if (ids.includes(ctx.auth.tenantId)) throw new AppError(409, 'conflict.platformTenant');
      await endSessionsOfTenants(ctx.sql, ids);
    },
  };
}
