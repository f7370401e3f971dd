import type { Database } from '../../apps/server/src/db/database';

/**
 * The storage ceiling: the same rows as ingestion writes (tenant, device, key, ts, value), as
 * multi-row inserts of `batch` rows through unnest into a plain table with the same primary key,
 * back to back on one connection for `seconds`. Answers data points stored per second.
 */
export async function bulkInsertPeer(
  db: Database,
  options: { devices: number; keys: string[]; batch: number; seconds: number },
): Promise<{ points: number; pointsPerSecond: number; batches: number }> {
  await db.system((sql) =>
    sql.exec(`DROP TABLE IF EXISTS bench_bulk_telemetry;
      CREATE TABLE bench_bulk_telemetry (
        tenant_id bigint NOT NULL, device_id bigint NOT NULL, key text NOT NULL,
        ts timestamptz NOT NULL, value double precision, text_value text,
        PRIMARY KEY (tenant_id, device_id, key, ts))`),
  );
  let points = 0;
  let batches = 0;
  let clock = Date.now() - 3_600_000;
  const started = performance.now();
  const until = started + options.seconds * 1000;
  while (performance.now() < until) {
    const tenants: number[] = [];
    const devices: number[] = [];
    const keys: string[] = [];
    const times: string[] = [];
    const values: number[] = [];
    for (let row = 0; row < options.batch; row += options.keys.length) {
      clock += 1;
      const device = (row / options.keys.length) % options.devices;
      for (const key of options.keys) {
        tenants.push(1);
        devices.push(device + 1);
        keys.push(key);
        times.push(new Date(clock).toISOString());
        values.push(Math.random() * 10);
      }
    }
    await db.system((sql) =>
      sql.query(
        `INSERT INTO bench_bulk_telemetry (tenant_id, device_id, key, ts, value)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::float8[])`,
        [tenants, devices, keys, times, values],
      ),
    );
    points += keys.length;
    batches += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  await db.system((sql) => sql.exec('DROP TABLE bench_bulk_telemetry'));
  return { points, pointsPerSecond: Math.round(points / seconds), batches };
}
