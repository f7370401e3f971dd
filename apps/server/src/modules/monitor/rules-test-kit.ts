import crypto from 'node:crypto';
import {
  entityCalls,
  PRODUCTS,
  ROLE_ADMIN,
  sysUserEntity,
  type DeviceKind,
} from '@shuili/contract';
import { call, signIn } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';
import type { Database } from '../../db/database';
import type { TestDevice } from '../iot/telemetry/telemetry-test-fixtures';

/** The demo tenant's id. */
export async function demoTenantId(db: Database): Promise<string> {
  const { rows } = await db.system((sql) =>
    sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
  );
  return rows[0]!.id;
}

/**
 * A device of the seeded product of a kind (its real thing model: PUMP-VFD-2, FERT-4CH,
 * WEATHER-8 ...) in the demo tenant, under a product of its own so tests never share one; in a
 * zone and at a latitude when given.
 */
export async function createAreaDevice(
  db: Database,
  kind: DeviceKind,
  options: { zoneId?: string; lat?: number; lng?: number } = {},
): Promise<TestDevice> {
  const seed = PRODUCTS.find((product) => product.kind === kind)!;
  const suffix = crypto.randomBytes(4).toString('hex');
  const tenantId = await demoTenantId(db);
  return db.system(async (sql) => {
    const product = await sql.query<{ id: string }>(
      `INSERT INTO iot_product (tenant_id, serial_no, product_name, device_kind, thing_model)
       VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id::text`,
      [
        tenantId,
        `${seed.serialNo}-${suffix}`,
        `${seed.name.en} ${suffix}`,
        kind,
        JSON.stringify(seed.thingModel),
      ],
    );
    const deviceNo = `${kind.replace(/_/g, '-')}-${suffix}`;
    const device = await sql.query<{ id: string }>(
      `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, zone_id, lat, lng)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
      [
        tenantId,
        deviceNo,
        `${seed.name.en} ${suffix}`,
        product.rows[0]!.id,
        options.zoneId ?? null,
        options.lat ?? null,
        options.lng ?? null,
      ],
    );
    return {
      tenantId,
      tenantCode: 'demo',
      deviceId: device.rows[0]!.id,
      deviceNo,
      productId: product.rows[0]!.id,
    };
  });
}

/** A new zone of the demo tenant. */
export async function createZone(db: Database, name: string): Promise<string> {
  const tenantId = await demoTenantId(db);
  const suffix = crypto.randomBytes(3).toString('hex');
  const { rows } = await db.system((sql) =>
    sql.query<{ id: string }>(
      `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_parent, zone_sequence)
       VALUES ($1, $2, $3, NULL, 0) RETURNING id::text`,
      [tenantId, `${name} ${suffix}`, `${name}-${suffix}`],
    ),
  );
  return rows[0]!.id;
}

/** A demo administrator confined to zones (ROLE_ADMIN holds every call: only RLS confines). */
export async function zonedAdmin(
  server: TestServer,
  adminToken: string,
  zoneIds: string[],
): Promise<string> {
  const tenantId = await demoTenantId(server.db);
  const { rows } = await server.db.system((sql) =>
    sql.query<{ org_id: string; role_id: string }>(
      `SELECT (SELECT id::text FROM sys_org WHERE tenant_id = $1 ORDER BY id LIMIT 1) AS org_id,
              (SELECT id::text FROM sys_role WHERE tenant_id = $1 AND role_code = $2) AS role_id`,
      [tenantId, ROLE_ADMIN],
    ),
  );
  const username = `zoned${crypto.randomBytes(3).toString('hex')}`;
  const created = await call(server, 'POST', entityCalls(sysUserEntity).add, {
    token: adminToken,
    body: {
      username,
      nickname: username,
      password: 'Zoned-user-42',
      orgId: rows[0]!.org_id,
      roleIds: [rows[0]!.role_id],
    },
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
    token: adminToken,
    body: { userId: String(created.body.data.id), zoneIds },
  });
  if (assigned.status !== 200) throw new Error(JSON.stringify(assigned.body));
  return (await signIn(server, 'demo', username, 'Zoned-user-42')).access_token;
}
