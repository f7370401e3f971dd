// The report benchmark's calls: the console's hourly aggregate (TELEMETRY_CALLS.aggregate, as the
// history chart sends it), the peer's plain GROUP BY of the same readings, and their comparison.
import { TELEMETRY_CALLS, TELEMETRY_MAX_SERIES } from '@shuili/contract';
import type { Sql } from '../../apps/server/src/db/database';
import type { PreparedReadings } from './report-data';

const HOUR_MS = 3_600_000;

export type CallName = 'device week' | 'devices day';

/** One aggregate: which series over which range (the same for the server and the peer). */
export interface AggregateAsk {
  deviceIds: string[];
  keys: string[];
  start: Date;
  end: Date;
}

export interface CallSpec {
  name: CallName;
  describe: string;
  /** The ask of the k-th run: runs move over the devices, so a run does not just reread cache. */
  ask(run: number): AggregateAsk;
}

/**
 * The two report calls. There is no tenant-wide aggregate call (one call takes at most
 * TELEMETRY_MAX_SERIES device × key series), so "a tenant over 24 h" is measured as the closest
 * real call: that many devices' water level over the last 24 h.
 */
export function reportCalls(data: PreparedReadings): CallSpec[] {
  const devices = data.deviceIds;
  const end = data.last;
  const many = Math.min(TELEMETRY_MAX_SERIES, devices.length);
  return [
    {
      name: 'device week',
      describe: `one device, its ${data.keys.length} keys, hourly over 7 days`,
      ask: (run) => ({
        deviceIds: [devices[(run * 37) % devices.length]!],
        keys: [...data.keys],
        start: new Date(end.getTime() - 7 * 24 * HOUR_MS),
        end,
      }),
    },
    {
      name: 'devices day',
      describe: `${many} devices (the most one call takes), one key, hourly over 24 h`,
      ask: (run) => {
        const from = (run * many) % Math.max(1, devices.length - many + 1);
        return {
          deviceIds: devices.slice(from, from + many),
          keys: [data.keys[0]!],
          start: new Date(end.getTime() - 24 * HOUR_MS),
          end,
        };
      },
    },
  ];
}

/** The console's request for an ask: hourly averages, as its history chart asks them. */
export function aggregatePath(ask: AggregateAsk): string {
  const query = new URLSearchParams({
    deviceIds: ask.deviceIds.join(','),
    keys: ask.keys.join(','),
    start: ask.start.toISOString(),
    end: ask.end.toISOString(),
    bucket: 'hour',
    fn: 'avg',
  });
  return `${TELEMETRY_CALLS.aggregate}?${query}`;
}

/** A bucket as both sides answer it. */
export interface Bucket {
  deviceId: string;
  key: string;
  bucket: string;
  avg: number | null;
}

/** The peer: the plain GROUP BY over the raw readings, no server, no rollup. */
export async function peerAggregate(
  sql: Sql,
  tenantId: string,
  ask: AggregateAsk,
): Promise<Bucket[]> {
  const { rows } = await sql.query<{ device: string; key: string; hour: Date; avg: number }>(
    `SELECT device_id::text AS device, key, date_trunc('hour', ts) AS hour, avg(value) AS avg
       FROM iot_telemetry
      WHERE tenant_id = $1 AND device_id = ANY($2::bigint[]) AND key = ANY($3::text[])
        AND ts >= $4 AND ts <= $5
      GROUP BY device_id, key, date_trunc('hour', ts)
      ORDER BY hour, device_id, key`,
    [tenantId, ask.deviceIds, ask.keys, ask.start.toISOString(), ask.end.toISOString()],
  );
  return rows.map((row) => ({
    deviceId: row.device,
    key: row.key,
    bucket: row.hour.toISOString(),
    avg: row.avg,
  }));
}

/** The server's answer as buckets (throws on anything but a 200 with a list). */
export function serverBuckets(status: number, body: string): Bucket[] {
  const parsed = JSON.parse(body) as { data?: { list?: Bucket[] } };
  if (status !== 200 || !parsed.data?.list)
    throw new Error(`aggregate answered ${status}: ${body.slice(0, 300)}`);
  return parsed.data.list.map(({ deviceId, key, bucket, avg }) => ({
    deviceId,
    key,
    bucket,
    avg: avg ?? null,
  }));
}

/**
 * Whether both sides answer the same buckets and averages. Averages may differ in the last bits:
 * the server adds hourly sums (rollup) where the peer adds the readings, in another order.
 */
export function sameBuckets(server: Bucket[], peer: Bucket[]): string | undefined {
  if (server.length !== peer.length) return `${server.length} buckets against ${peer.length}`;
  for (const [i, s] of server.entries()) {
    const p = peer[i]!;
    if (s.deviceId !== p.deviceId || s.key !== p.key || s.bucket !== p.bucket)
      return `bucket ${i}: ${JSON.stringify(s)} against ${JSON.stringify(p)}`;
    const scale = Math.max(1, Math.abs(p.avg ?? 0));
    if (
      (s.avg === null) !== (p.avg === null) ||
      Math.abs((s.avg ?? 0) - (p.avg ?? 0)) > 1e-9 * scale
    )
      return `bucket ${i}: average ${s.avg} against ${p.avg}`;
  }
  return undefined;
}

/**
 * For reference only (no call answers it): every device of the tenant, per key and hour over
 * the last 24 whole hours [$2, $3), from the raw readings and from the hourly rollup (the
 * tenant-wide report a dashboard would need).
 */
export const TENANT_DAY_SQL = {
  raw: `SELECT key, date_trunc('hour', ts) AS hour, avg(value) AS avg, count(value) AS n
          FROM iot_telemetry WHERE tenant_id = $1 AND ts >= $2 AND ts < $3
         GROUP BY key, date_trunc('hour', ts) ORDER BY 2, 1`,
  rollup: `SELECT key, hour, sum(sum) / nullif(sum(n), 0) AS avg, sum(n) AS n
             FROM iot_telemetry_hourly WHERE tenant_id = $1 AND hour >= $2 AND hour < $3
            GROUP BY key, hour ORDER BY 2, 1`,
};
