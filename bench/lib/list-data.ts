// The list benchmark's data: a database migrated and seeded by the server's own code, tenants
// provisioned by the server's own provisioning (each with its roles, menus, IoT catalogue and an
// admin who can sign in), and N devices in each, added with one generate_series statement.
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import { migrate } from '../../apps/server/src/db/migrate';
import { seed } from '../../apps/server/src/db/seed';
import { provisionTenant } from '../../apps/server/src/modules/admin/tenant-provisioning.service';
import { hashPassword } from '../../apps/server/src/modules/uaa/password-hasher';
import { openTarget, type Target } from '@shuili/test-support/database-target';

/** The password of every bench tenant's admin (`admin` of `bench-001`, …). */
export const BENCH_ADMIN_PASSWORD = 'bench-admin-123';

/**
 * Migrates and seeds the database as the server does, provisions tenants until `tenants` hold
 * devices (demo, acme, then bench-001, bench-002, …) and fills each to `devicesPerTenant`
 * devices. Devices are inserted round-robin over the tenants, as a district's devices arrive over
 * time, so one tenant's page is spread over the table rather than packed. Each device gets one of
 * its tenant's products, its first project and one of its zones (where it has them), so the list
 * computes its labels as in the console. Answers demo's id. PGlite belongs to one process: the
 * database is closed again before the server opens it.
 */
export async function prepareDevices(
  target: Target,
  tenants: number,
  devicesPerTenant: number,
): Promise<string> {
  const db = await openTarget(target, 2);
  let demoId: string;
  try {
    await migrate(db);
    // No simulated past: its storm and silt section would raise warnings at the server's start
    // that the peers (on PGlite, a copy of the folder taken before) never see.
    await seed(db, loadConfig({ demoHistoryDays: 0 }));
    const codes = ['demo', 'acme'];
    for (let i = 1; codes.length < tenants; i += 1)
      codes.push(`bench-${String(i).padStart(3, '0')}`);
    const passwordHash = await hashPassword(BENCH_ADMIN_PASSWORD);
    for (const code of codes.slice(2)) {
      await db.system((sql) =>
        provisionTenant(sql, {
          tenantCode: code,
          tenantName: `Bench district ${code}`,
          users: [
            { username: 'admin', nickname: 'Bench admin', passwordHash, roleCodes: ['ROLE_ADMIN'] },
          ],
        }),
      );
    }
    demoId = await db.system(async (sql) => {
      await sql.query(
        `WITH t AS (SELECT id FROM tenant WHERE tenant_code = ANY($1::text[])),
              need AS (SELECT t.id AS tenant_id,
                              $2::int - (SELECT count(*)::int FROM iot_device d WHERE d.tenant_id = t.id) AS n
                         FROM t),
              p AS (SELECT tenant_id, array_agg(id ORDER BY id) AS ids FROM iot_product GROUP BY tenant_id),
              z AS (SELECT tenant_id, array_agg(id ORDER BY id) AS ids FROM sys_zone GROUP BY tenant_id),
              pr AS (SELECT tenant_id, min(id) AS id FROM iot_project GROUP BY tenant_id)
         INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, project_id, zone_id,
                                 lat, lng, install_address, status, online, last_seen)
         SELECT need.tenant_id, 'BENCH-' || lpad(i::text, 6, '0'), 'Bench device ' || i,
                p.ids[1 + i % cardinality(p.ids)], pr.id, z.ids[1 + i % cardinality(z.ids)],
                36.6 + (i % 1000) * 0.0001, 117.0 + (i % 997) * 0.0001, 'Canal ' || (i % 12),
                CASE WHEN i % 50 = 0 THEN 3 ELSE 0 END, i % 3 <> 0, now() - make_interval(secs => i)
           FROM need JOIN p USING (tenant_id) LEFT JOIN z USING (tenant_id) LEFT JOIN pr USING (tenant_id),
                generate_series(1, greatest(need.n, 0)) AS i
          ORDER BY i, need.tenant_id`,
        [codes, devicesPerTenant],
      );
      const { rows } = await sql.query<{ id: string }>(
        `SELECT id::text AS id FROM tenant WHERE tenant_code = 'demo'`,
      );
      return rows[0]!.id;
    });
  } finally {
    await db.close();
  }
  // PostgreSQL's autovacuum vacuums and analyses the table soon after this many inserts (VACUUM
  // cannot run in a transaction, so on its own connection); PGlite runs in single-user mode
  // without autovacuum and the server never runs ANALYZE, so it stays as it is.
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query('VACUUM ANALYZE').finally(() => client.end());
  }
  return demoId;
}
