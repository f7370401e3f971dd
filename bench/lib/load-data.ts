// The load benchmark's data: a database migrated and seeded by the server's own code, more
// tenants made by the server's own provisioning, and in every tenant a metered-valve product, its
// devices (with credentials from the server's credential service), 24 h of readings, open alarms,
// notifications, and the signed-in users' accounts (admins and operators).
import { ROLE_ADMIN, ROLE_OPERATOR, type ThingModel } from '@shuili/contract';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import type { Sql } from '../../apps/server/src/db/database';
import { migrate } from '../../apps/server/src/db/migrate';
import { seed } from '../../apps/server/src/db/seed';
import { provisionTenant } from '../../apps/server/src/modules/admin/tenant-provisioning.service';
import { CredentialService } from '../../apps/server/src/modules/iot/device/credential.service';
import { hashPassword } from '../../apps/server/src/modules/uaa/password-hasher';
import { BENCH_KEYS } from '@shuili/test-support/ingest-data';
import { openTarget, type Target } from '@shuili/test-support/database-target';

/** The password of every load user (one argon2 hash, computed once). */
export const LOAD_USER_PASSWORD = 'load-user-123';

/** The property a command sets (`setProperty`): the valve's opening. */
export const VALVE_KEY = 'valveOpening';

const name = (en: string) => ({ en, zh: en, tw: en });
const number = (key: string, max: number, access: 'r' | 'rw') => ({
  key,
  name: name(key),
  type: 'number' as const,
  min: 0,
  max,
  access,
});

/** The bench meter's three readings (as in ingest-data.ts) plus a valve the console can set. */
const LOAD_MODEL: ThingModel = {
  properties: [
    number(BENCH_KEYS[0], 100, 'r'),
    number(BENCH_KEYS[1], 10_000, 'r'),
    number(BENCH_KEYS[2], 10, 'r'),
    number(VALVE_KEY, 100, 'rw'),
  ],
  events: [],
  commands: [],
};

export interface LoadDataPlan {
  tenants: number;
  devicesPerTenant: number;
  users: number;
  /** Of every tenant's users, this share are admins (ROLE_ADMIN); the rest operators. */
  adminShare: number;
  /** Readings per device and key over the last 24 h before the run (the history chart's data). */
  historyPerDay: number;
  openAlarmsPerTenant: number;
  notificationsPerTenant: number;
}

export interface LoadTenant {
  tenantCode: string;
  productId: string;
  devices: { id: string; deviceNo: string }[];
  alarmIds: string[];
  notificationIds: string[];
}

export interface LoadAccount {
  tenantCode: string;
  username: string;
  role: 'admin' | 'operator';
}

export interface LoadDeviceCredential {
  tenantCode: string;
  deviceNo: string;
  identity: string;
  secret: string;
}

export interface LoadData {
  tenants: LoadTenant[];
  accounts: LoadAccount[];
  devices: LoadDeviceCredential[];
  /** Readings stored before the run (the 24 h of history). */
  readingsBefore: number;
}

const tenantCodes = (count: number) => {
  const codes = ['demo', 'acme'];
  for (let i = 1; codes.length < count; i += 1) codes.push(`load-${String(i).padStart(3, '0')}`);
  return codes.slice(0, count);
};

/**
 * Prepares the database (closed again: PGlite belongs to one process). Users are spread evenly
 * over the tenants; each tenant's first `adminShare` of them are admins.
 */
export async function prepareLoad(target: Target, plan: LoadDataPlan): Promise<LoadData> {
  const db = await openTarget(target, 2);
  const codes = tenantCodes(plan.tenants);
  const accounts: LoadAccount[] = [];
  const tenants: LoadTenant[] = [];
  let readingsBefore = 0;
  try {
    await migrate(db);
    await seed(db, loadConfig());
    const passwordHash = await hashPassword(LOAD_USER_PASSWORD);
    for (const code of codes.slice(2))
      await db.system((sql) =>
        provisionTenant(sql, { tenantCode: code, tenantName: `Load district ${code}`, users: [] }),
      );
    for (const [t, code] of codes.entries()) {
      const users = Math.floor(plan.users / codes.length) + (t < plan.users % codes.length ? 1 : 0);
      const admins = Math.max(1, Math.round(users * plan.adminShare));
      const mine = Array.from({ length: users }, (_, i): LoadAccount => {
        const role = i < admins ? 'admin' : 'operator';
        return { tenantCode: code, username: `load-${role}-${i + 1}`, role };
      });
      accounts.push(...mine);
      tenants.push(await db.system((sql) => fillTenant(sql, code, mine, passwordHash, plan)));
    }
    const devices: LoadDeviceCredential[] = [];
    const credentials = new CredentialService(db);
    for (const code of codes) {
      // Every device of the tenant gets a fresh secret; only the load's devices publish.
      const issued = await credentials.issueDemoCredentials(code);
      for (const device of issued)
        if (device.deviceNo.startsWith('LOAD-'))
          devices.push({
            tenantCode: code,
            deviceNo: device.deviceNo,
            identity: device.identity,
            secret: device.secret,
          });
    }
    readingsBefore = await db.system(async (sql) => {
      const { rows } = await sql.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM iot_telemetry',
      );
      return Number(rows[0]!.n);
    });
    await db.close();
    // As autovacuum would soon after these inserts (VACUUM cannot run in a transaction); PGlite
    // runs without autovacuum and the server never analyses, so it stays as it is.
    if (target.kind === 'postgres') {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query('VACUUM ANALYZE').finally(() => client.end());
    }
    return { tenants, accounts, devices, readingsBefore };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** One tenant's product, devices, history, alarms, notifications and users. */
async function fillTenant(
  sql: Sql,
  code: string,
  accounts: LoadAccount[],
  passwordHash: string,
  plan: LoadDataPlan,
): Promise<LoadTenant> {
  const { rows: ids } = await sql.query<{ tenant_id: string; org_id: string | null }>(
    `SELECT t.id::text AS tenant_id,
            (SELECT o.id::text FROM sys_org o WHERE o.tenant_id = t.id AND o.org_parent IS NULL
              ORDER BY o.id LIMIT 1) AS org_id
       FROM tenant t WHERE t.tenant_code = $1`,
    [code],
  );
  const tenantId = ids[0]!.tenant_id;
  const product = await sql.query<{ id: string }>(
    `INSERT INTO iot_product (tenant_id, serial_no, product_name, device_kind, protocol, status, thing_model)
     VALUES ($1, 'LOAD-VALVE', 'Metered valve', 'irrigation_valve', 'mqtt_json', 1, $2::jsonb)
     RETURNING id::text`,
    [tenantId, JSON.stringify(LOAD_MODEL)],
  );
  const productId = product.rows[0]!.id;
  const devices = await sql.query<{ id: string; device_no: string }>(
    `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, project_id, status, online)
     SELECT $1, 'LOAD-' || lpad(i::text, 5, '0'), 'Valve ' || i, $2,
            (SELECT min(id) FROM iot_project WHERE tenant_id = $1), 0, false
       FROM generate_series(1, $3::int) AS i
     RETURNING id::text, device_no`,
    [tenantId, productId, plan.devicesPerTenant],
  );
  const deviceIds = devices.rows.map((row) => row.id);
  // The last 24 h of readings, so the history chart and the hourly report have data to show.
  await sql.query(
    `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
     SELECT $1, d, k, now() - make_interval(secs => i * 86400.0 / $4), 1 + random() * 50
       FROM unnest($2::bigint[]) AS d, unnest($3::text[]) AS k, generate_series(1, $4::int) AS i`,
    [tenantId, deviceIds, [...BENCH_KEYS], plan.historyPerDay],
  );
  const alarms = await sql.query<{ id: string }>(
    `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, threshold,
                                   started_at, state)
     SELECT $1, ($2::bigint[])[1 + i % cardinality($2::bigint[])], 'waterLevel',
            (ARRAY['blue','yellow','orange','red'])[1 + i % 4], 80 + i % 20, 80,
            now() - make_interval(mins => i), 'open'
       FROM generate_series(1, $3::int) AS i
     RETURNING id::text`,
    [tenantId, deviceIds, plan.openAlarmsPerTenant],
  );
  const notifications = await sql.query<{ id: string }>(
    `INSERT INTO notification (tenant_id, title, content, type, priority, created_at)
     SELECT $1, 'Canal maintenance ' || i, '<p>Gate ' || i || ' closes for maintenance on Friday.</p>',
            CASE WHEN i % 3 = 0 THEN 'message' ELSE 'notice' END, 'normal',
            now() - make_interval(hours => i)
       FROM generate_series(1, $2::int) AS i
     RETURNING id::text`,
    [tenantId, plan.notificationsPerTenant],
  );
  await sql.query(
    `WITH u AS (
       INSERT INTO sys_user (tenant_id, username, nickname, password_hash, org_id)
       SELECT $1, name, 'Load ' || name, $3, $4 FROM unnest($2::text[]) AS name
       RETURNING id, username)
     INSERT INTO sys_user_role (tenant_id, user_id, role_id)
     SELECT $1, u.id, r.id FROM u JOIN sys_role r
       ON r.tenant_id = $1
      AND r.role_code = CASE WHEN u.username LIKE 'load-admin-%' THEN $5 ELSE $6 END`,
    [
      tenantId,
      accounts.map((account) => account.username),
      passwordHash,
      ids[0]!.org_id,
      ROLE_ADMIN,
      ROLE_OPERATOR,
    ],
  );
  return {
    tenantCode: code,
    productId,
    devices: devices.rows.map((row) => ({ id: row.id, deviceNo: row.device_no })),
    alarmIds: alarms.rows.map((row) => row.id),
    notificationIds: notifications.rows.map((row) => row.id),
  };
}
