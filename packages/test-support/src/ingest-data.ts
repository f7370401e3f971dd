// The ingest benchmark's data: a database migrated and seeded by the server's own code, plus a
// bench product (three numeric properties) and N devices of it in tenant demo, each with its own
// credentials issued by the server's credential service.
import type { ThingModel } from '@shuili/contract';
import { loadConfig } from '@shuili/server/config';
import { migrate } from '@shuili/server/db/migrate';
import { seed } from '@shuili/server/db/seed';
import { CredentialService } from '@shuili/server/modules/iot/device/credential.service';
import { openTarget, type Target } from './database-target';

/** The three values every bench message carries (the issue's "3-value telemetry"). */
export const BENCH_KEYS = ['waterLevel', 'flow', 'pressure'] as const;

const name = (en: string) => ({ en, zh: en, tw: en });
const BENCH_MODEL: ThingModel = {
  properties: [
    {
      key: 'waterLevel',
      name: name('Level'),
      type: 'number',
      unit: 'm',
      min: 0,
      max: 100,
      access: 'r',
    },
    {
      key: 'flow',
      name: name('Flow'),
      type: 'number',
      unit: 'm³/h',
      min: 0,
      max: 10_000,
      access: 'r',
    },
    {
      key: 'pressure',
      name: name('Pressure'),
      type: 'number',
      unit: 'MPa',
      min: 0,
      max: 10,
      access: 'r',
    },
  ],
  events: [],
  commands: [],
};

export interface BenchDevice {
  deviceNo: string;
  identity: string;
  secret: string;
}

/** Prepares the database (closed again: PGlite belongs to one process) and answers the devices. */
export async function prepareDevices(target: Target, count: number): Promise<BenchDevice[]> {
  const db = await openTarget(target, 2);
  try {
    await migrate(db);
    // The demo's simulated past is for people: the benchmark's devices replace the demo's. Its
    // wells' card sessions would be ledger entries, which are append-only and keep their devices.
    await seed(db, loadConfig({ demoHistoryDays: 0, demoCardSessions: false }));
    await db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `SELECT id::text FROM tenant WHERE tenant_code = 'demo'`,
      );
      const tenantId = rows[0]?.id;
      if (!tenantId) throw new Error('tenant demo was not seeded');
      // Only the bench devices publish: the seeded demo devices would get fresh secrets too. The
      // demo's rows that point at them (sensor and controller instances, files, commands) go first.
      // The referencing column is the one paired with iot_device.id: a composite key
      // (tenant_id, controller_id) names the tenant first, and matching device ids against
      // tenant ids would delete unrelated rows (an append-only ledger's among them).
      const dependents = await sql.query<{ tbl: string; col: string }>(
        `SELECT DISTINCT c.conrelid::regclass::text AS tbl, a.attname AS col
           FROM pg_constraint c
           CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(own, referenced)
           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.own
           JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = k.referenced
          WHERE c.contype = 'f' AND c.confrelid = 'iot_device'::regclass AND r.attname = 'id'`,
      );
      for (const { tbl, col } of dependents.rows) {
        await sql.query(
          `DELETE FROM ${tbl} WHERE ${col} IN (SELECT id FROM iot_device WHERE tenant_id = $1)`,
          [tenantId],
        );
      }
      // And the rows keyed by a device without a foreign key (readings, meters, area settings,
      // runs: their tables come before the entity tables they would reference).
      const keyed = await sql.query<{ tbl: string }>(
        `SELECT c.table_name AS tbl FROM information_schema.columns c
           JOIN information_schema.tables t
             ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = 'public' AND c.column_name = 'device_id'
            AND t.table_type = 'BASE TABLE'
            AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.table_name::regclass)`,
      );
      for (const { tbl } of keyed.rows) {
        await sql.query(
          `DELETE FROM ${tbl} WHERE device_id IN (SELECT id FROM iot_device WHERE tenant_id = $1)`,
          [tenantId],
        );
      }
      await sql.query(`DELETE FROM iot_device WHERE tenant_id = $1`, [tenantId]);
      const product = await sql.query<{ id: string }>(
        `INSERT INTO iot_product (tenant_id, serial_no, product_name, device_kind, protocol, status, thing_model)
         VALUES ($1, 'BENCH-METER', 'Bench meter', 'flood_station', 'mqtt_json', 1, $2::jsonb)
         RETURNING id::text`,
        [tenantId, JSON.stringify(BENCH_MODEL)],
      );
      await sql.query(
        `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, status, online)
         SELECT $1, 'B' || lpad(i::text, 5, '0'), 'Bench device ' || i, $2, 0, false
           FROM generate_series(1, $3::int) AS i`,
        [tenantId, product.rows[0]!.id, count],
      );
    });
    const issued = await new CredentialService(db).issueDemoCredentials('demo');
    return issued.map(({ deviceNo, identity, secret }) => ({ deviceNo, identity, secret }));
  } finally {
    await db.close();
  }
}

/**
 * The bench devices' messages, as `publishStep` asks for them: three-value telemetry. `ts` is the
 * reading's instant and must differ between two readings of one device (the same instant is the
 * same reading, stored once), so it is the publish time made strictly increasing per device;
 * `sentAt` (ignored by ingestion) carries the publish time for the delay measurements.
 */
export function telemetryPayloads(): (sentAt: number, device: number) => string {
  const lastTs = new Map<number, number>();
  return (sentAt, device) => {
    const ts = Math.max(sentAt, (lastTs.get(device) ?? 0) + 1);
    lastTs.set(device, ts);
    return JSON.stringify({
      ts,
      sentAt,
      values: { waterLevel: 1 + Math.random(), flow: 120 + Math.random() * 10, pressure: 0.3 },
    });
  };
}
