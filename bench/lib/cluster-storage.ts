// What one PostgreSQL holds (docs/scaling.md): the telemetry rows the server's own writer
// (TelemetryWriter, with the hourly rollup and meter triggers of the migrations) stores for a
// simulated stretch of readings once a minute, measured on disk: bytes per reading of the month
// partition (heap + primary key index) and of the rollup, the writer's rate on its own, and what
// retention by DELETE costs beside dropping a month (retention-sweeper.ts).
import { BENCH_KEYS } from '@shuili/test-support/ingest-data';
import { openTarget } from '@shuili/test-support/database-target';
import { createTestPostgresDatabase } from '@shuili/test-support/test-server';
import { partitionOf, type StoredRow } from '@shuili/server/modules/iot/telemetry/ingest.repo';
import { TelemetryWriter } from '@shuili/server/modules/iot/telemetry/telemetry-writer';
import { bulkInsertPeer } from './bulk-insert-peer';
import { round } from './stats';

export interface StoragePlan {
  tenants: number;
  devicesPerTenant: number;
  /** Simulated hours of readings, one per device and key a minute. */
  hours: number;
  /** The ingest benchmark's bare multi-row insert beside the writer, for this long. */
  bulkSeconds: number;
}

const MINUTE_MS = 60_000;

interface Sizes {
  rows: number;
  heapBytes: number;
  indexBytes: number;
  totalBytes: number;
}

/** Heap (with its TOAST and maps) and index bytes of one table, and its live rows. */
async function sizesOf(
  query: <R>(text: string, values?: unknown[]) => Promise<R[]>,
  table: string,
): Promise<Sizes> {
  const [row] = await query<{ rows: string; heap: string; index: string; total: string }>(
    `SELECT (SELECT count(*) FROM ${table})::text AS rows,
            (pg_total_relation_size($1::regclass) - pg_indexes_size($1::regclass))::text AS heap,
            pg_indexes_size($1::regclass)::text AS index,
            pg_total_relation_size($1::regclass)::text AS total`,
    [table],
  );
  return {
    rows: Number(row!.rows),
    heapBytes: Number(row!.heap),
    indexBytes: Number(row!.index),
    totalBytes: Number(row!.total),
  };
}

const perRow = (bytes: number, rows: number) => (rows ? round(bytes / rows, 1) : NaN);

function perReading(sizes: Sizes, readings: number) {
  return {
    heap: perRow(sizes.heapBytes, readings),
    index: perRow(sizes.indexBytes, readings),
    total: perRow(sizes.totalBytes, readings),
  };
}

/**
 * Stores `hours` of readings of every device (three keys, one reading a minute each, minute by
 * minute as they would arrive) through the server's TelemetryWriter into a fresh migrated
 * database, then measures the tables, vacuums and measures again, and deletes the first hour as a
 * tenant's shorter retention would (the sweeper's statement, with the rollup's delete trigger).
 */
export async function measureStorage(databaseUrl: string | undefined, plan: StoragePlan) {
  if (!databaseUrl) return undefined;
  const created = await createTestPostgresDatabase({ migrated: true });
  const db = await openTarget({ kind: 'postgres', url: created.url }, 4);
  try {
    const query = <R>(text: string, values: unknown[] = []) =>
      db.system(async (sql) => (await sql.query(text, values)).rows as R[]);
    // A month's start plus the hours: inside the current month, whose partition the migrations
    // made, whatever today's date.
    const now = new Date();
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const partition = partitionOf(new Date(start));
    const devices = plan.tenants * plan.devicesPerTenant;
    // The storage ceiling of the ingest benchmark, on the same database just before.
    const bulkInsert = await bulkInsertPeer(db, {
      devices,
      keys: [...BENCH_KEYS],
      batch: 1500,
      seconds: plan.bulkSeconds,
    });
    const writer = new TelemetryWriter(db);
    const minutes = plan.hours * 60;
    const began = performance.now();
    // Ten minutes of uplinks handed over at a time: the writer batches them as a node's backlog
    // (awaiting each minute would time the flush timer, not the database).
    let writes: Promise<void>[] = [];
    for (let minute = 0; minute < minutes; minute += 1) {
      const ts = new Date(start + minute * MINUTE_MS + 17_000);
      for (let d = 0; d < devices; d += 1) {
        const tenantId = String(1 + Math.floor(d / plan.devicesPerTenant));
        const deviceId = String(1_000 + d);
        const rows: StoredRow[] = BENCH_KEYS.map((key, k) => ({
          tenantId,
          deviceId,
          key,
          ts,
          value: 10 * k + Math.sin(minute / 30 + d) + Math.random(),
          textValue: null,
        }));
        writes.push(writer.write({ rows }));
      }
      if (minute % 10 === 9 || minute === minutes - 1) {
        await Promise.all(writes);
        writes = [];
      }
    }
    await writer.close();
    const writeSeconds = (performance.now() - began) / 1000;
    const readings = devices * BENCH_KEYS.length * minutes;

    const measureAll = async () => ({
      partition: await sizesOf(query, partition),
      hourly: await sizesOf(query, 'iot_telemetry_hourly'),
      latest: await sizesOf(query, 'iot_telemetry_latest'),
    });
    const [dead] = await query<{ dead: string }>(
      `SELECT coalesce(sum(n_dead_tup), 0)::text AS dead FROM pg_stat_user_tables
        WHERE relname = 'iot_telemetry_hourly'`,
    );
    const beforeVacuum = await measureAll();
    const vacuumStarted = performance.now();
    await db.system((sql) => sql.query('SELECT 1')); // the pool's transaction ends before VACUUM
    await vacuum(created.url, [partition, 'iot_telemetry_hourly']);
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
    const afterVacuum = await measureAll();

    // Written as fast as the writer goes, the rollup's rows were updated faster than any
    // autovacuum could follow; rewritten (VACUUM FULL keeps the table's fillfactor of 70) they
    // show the size autovacuum keeps at one reading a minute. A closed month's primary key,
    // rebuilt (REINDEX), is packed instead of half-split pages: what an old month costs.
    await vacuum(
      created.url,
      [],
      [`VACUUM (FULL, ANALYZE) iot_telemetry_hourly`, `REINDEX TABLE ${partition}`],
    );
    const compacted = {
      hourly: await sizesOf(query, 'iot_telemetry_hourly'),
      partition: await sizesOf(query, partition),
    };

    // A tenant's shorter retention: its oldest hour deleted row by row (the sweeper's DELETE),
    // which fires the rollup's recount of every hour it touches; dropping a month fires nothing.
    const cutoff = new Date(start + 60 * MINUTE_MS).toISOString();
    const deleteStarted = performance.now();
    const [deleted] = await query<{ n: number }>(
      `WITH gone AS (DELETE FROM iot_telemetry WHERE tenant_id = 1 AND ts < $1 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    const deleteSeconds = (performance.now() - deleteStarted) / 1000;
    const dropStarted = performance.now();
    await query(`DROP TABLE ${partition}`);
    const dropSeconds = (performance.now() - dropStarted) / 1000;

    const hourlyRows = afterVacuum.hourly.rows;
    return {
      plan,
      devices,
      keys: BENCH_KEYS.length,
      readings,
      partition,
      writer: {
        seconds: round(writeSeconds),
        readingsPerSecond: Math.round(readings / writeSeconds),
        ofBulkInsert: round(readings / writeSeconds / bulkInsert.pointsPerSecond),
      },
      bulkInsert,
      beforeVacuum,
      hourlyDeadRowsBeforeVacuum: Number(dead!.dead),
      afterVacuum,
      vacuumSeconds: round(vacuumSeconds),
      bytesPerReading: {
        partition: perReading(afterVacuum.partition, readings),
        /** The rollup's share: one row per device, key and hour, over the hour's readings. */
        hourly: perReading(afterVacuum.hourly, readings),
        partitionBeforeVacuum: perReading(beforeVacuum.partition, readings),
        hourlyBeforeVacuum: perReading(beforeVacuum.hourly, readings),
      },
      compacted,
      /** The rollup's bytes per row as written at speed, and rewritten (what autovacuum keeps). */
      bytesPerHourlyRow: {
        asWritten: perRow(afterVacuum.hourly.totalBytes, hourlyRows),
        compacted: perRow(compacted.hourly.totalBytes, hourlyRows),
      },
      /** The month partition's bytes per reading once closed and its primary key rebuilt. */
      closedMonthBytesPerReading: perReading(compacted.partition, readings),
      retention: {
        deletedReadings: deleted!.n,
        deleteSeconds: round(deleteSeconds),
        deletedPerSecond: Math.round(deleted!.n / deleteSeconds),
        dropPartitionSeconds: round(dropSeconds, 3),
      },
    };
  } finally {
    await db.close();
    await created.drop();
  }
}

/** VACUUM runs outside a transaction, which the server's database layer always opens. */
async function vacuum(url: string, tables: string[], statements: string[] = []) {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of tables) await client.query(`VACUUM (ANALYZE) ${table}`);
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
