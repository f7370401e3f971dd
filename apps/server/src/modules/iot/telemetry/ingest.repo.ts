import type { Sql } from '../../../db/database';
import type { ProblemCounts } from './telemetry-check';

/** One reading to store. */
export interface StoredRow {
  tenantId: string;
  deviceId: string;
  key: string;
  ts: Date;
  value: number | null;
  textValue: string | null;
}

/** What one flush adds to a device's counters. */
export interface StatDelta extends ProblemCounts {
  tenantId: string;
  deviceId: string;
  accepted: number;
  lastProblem: string | null;
  lastProblemAt: Date | null;
  lastAcceptedAt: Date | null;
}

/** A device's online state and last contact, written at most every few seconds per device. */
export interface DeviceUpdate {
  tenantId: string;
  deviceId: string;
  seenAt: Date | null;
  online: boolean | null;
}

/** "iot_telemetry_y2026m03": the UTC month partition a reading falls in. */
export function partitionOf(ts: Date): string {
  return `iot_telemetry_y${ts.getUTCFullYear()}m${String(ts.getUTCMonth() + 1).padStart(2, '0')}`;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/*
 * The readings' columns go as ready-made array literals ('{1,2,NULL}'), built in one pass over
 * the rows: given JS arrays, pg serialises every element on its own (prepareValue, then two regex
 * replaces in escapeElement) and the six rows.map passes allocate six arrays; that was 6 % of the
 * server's CPU under load. Times go as epoch milliseconds (float8, exact for ms: to_timestamp
 * rounds to the microsecond) instead of ISO strings, which cost a toISOString each here and a
 * timestamp parse each in the database.
 */

/** A text element of an array literal, quoted as pg's escapeElement quotes it. */
const quoted = (text: string) =>
  text.includes('\\') || text.includes('"')
    ? `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
    : `"${text}"`;

/** The six columns of readings as array literals, for the unnest of readingColumnsSql. */
function readingColumns(rows: readonly StoredRow[]): string[] {
  let tenants = '{';
  let devices = '{';
  let keys = '{';
  let times = '{';
  let values = '{';
  let texts = '{';
  // Consecutive rows mostly share their device and key set: quote each distinct text once.
  let lastTenant = '';
  let tenantText = '';
  let lastDevice = '';
  let deviceText = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const comma = i === 0 ? '' : ',';
    if (row.tenantId !== lastTenant || i === 0) {
      lastTenant = row.tenantId;
      tenantText = quoted(row.tenantId);
    }
    if (row.deviceId !== lastDevice || i === 0) {
      lastDevice = row.deviceId;
      deviceText = quoted(row.deviceId);
    }
    tenants += comma + tenantText;
    devices += comma + deviceText;
    keys += comma + quoted(row.key);
    times += comma + String(row.ts.getTime());
    values += comma + (row.value === null ? 'NULL' : String(row.value));
    texts += comma + (row.textValue === null ? 'NULL' : quoted(row.textValue));
  }
  return [tenants + '}', devices + '}', keys + '}', times + '}', values + '}', texts + '}'];
}

const readingColumnsSql = `SELECT t, d, k, to_timestamp(ms / 1000), v, x
  FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::double precision[],
              $5::double precision[], $6::text[]) AS u(t, d, k, ms, v, x)`;

/** SQL of ingestion; every statement is one multi-row statement over arrays (unnest). */
export const ingestRepo = {
  /** Creates the month partitions of these instants that do not exist yet. */
  async ensurePartitions(sql: Sql, instants: Date[]): Promise<void> {
    for (const at of instants)
      await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [at.toISOString()]);
  },

  async insertTelemetry(sql: Sql, rows: StoredRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql.query(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value, text_value)
       ${readingColumnsSql}
       ON CONFLICT DO NOTHING`,
      readingColumns(rows),
    );
  },

  /** Moves each latest value forward only (a late, older reading never replaces a newer one). */
  async upsertLatest(sql: Sql, rows: StoredRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql.query(
      `INSERT INTO iot_telemetry_latest AS l (tenant_id, device_id, key, ts, value, text_value)
       ${readingColumnsSql}
       ON CONFLICT (tenant_id, device_id, key) DO UPDATE
          SET ts = EXCLUDED.ts, value = EXCLUDED.value, text_value = EXCLUDED.text_value
        WHERE l.ts < EXCLUDED.ts`,
      readingColumns(rows),
    );
  },

  async addStats(sql: Sql, stats: StatDelta[]): Promise<void> {
    if (stats.length === 0) return;
    await sql.query(
      `INSERT INTO iot_ingest_stat AS s (tenant_id, device_id, accepted, unknown_keys, wrong_type,
                                         out_of_range, bad_payload, bad_time, last_problem,
                                         last_problem_at, last_accepted_at)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[],
                            $6::bigint[], $7::bigint[], $8::bigint[], $9::text[],
                            $10::timestamptz[], $11::timestamptz[])
       ON CONFLICT (tenant_id, device_id) DO UPDATE SET
         accepted = s.accepted + EXCLUDED.accepted,
         unknown_keys = s.unknown_keys + EXCLUDED.unknown_keys,
         wrong_type = s.wrong_type + EXCLUDED.wrong_type,
         out_of_range = s.out_of_range + EXCLUDED.out_of_range,
         bad_payload = s.bad_payload + EXCLUDED.bad_payload,
         bad_time = s.bad_time + EXCLUDED.bad_time,
         last_problem = coalesce(EXCLUDED.last_problem, s.last_problem),
         last_problem_at = coalesce(EXCLUDED.last_problem_at, s.last_problem_at),
         last_accepted_at = greatest(s.last_accepted_at, EXCLUDED.last_accepted_at)`,
      [
        stats.map((stat) => stat.tenantId),
        stats.map((stat) => stat.deviceId),
        stats.map((stat) => stat.accepted),
        stats.map((stat) => stat.unknownKeys),
        stats.map((stat) => stat.wrongType),
        stats.map((stat) => stat.outOfRange),
        stats.map((stat) => stat.badPayload),
        stats.map((stat) => stat.badTime),
        stats.map((stat) => stat.lastProblem),
        stats.map((stat) => iso(stat.lastProblemAt)),
        stats.map((stat) => iso(stat.lastAcceptedAt)),
      ],
    );
  },

  /** online / last_seen of iot_device (kept by ingestion; read-only in the console). */
  async updateDevices(sql: Sql, updates: DeviceUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await sql.query(
      `UPDATE iot_device d
          SET last_seen = greatest(d.last_seen, v.seen_at),
              online = coalesce(v.online, d.online)
         FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::boolean[])
              AS v(tenant_id, device_id, seen_at, online)
        WHERE d.tenant_id = v.tenant_id AND d.id = v.device_id`,
      [
        updates.map((update) => update.tenantId),
        updates.map((update) => update.deviceId),
        updates.map((update) => iso(update.seenAt)),
        updates.map((update) => update.online),
      ],
    );
  },
};
