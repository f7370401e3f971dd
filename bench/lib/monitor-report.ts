// The data report of the monitor benchmark: the irrigation area's report of every valve with
// readings (50) × its report factors (3), hourly over 30 days, through the console's call, beside
// the plain GROUP BY of the same readings in SQL (as bench/report.ts does for the aggregate call).
import {
  irrigationArea,
  MONITOR_REPORT_CALLS,
  type AreaReport,
  type AreaReportQuery,
} from '@shuili/contract';
import type { Database } from '../../apps/server/src/db/database';
import { telemetryQueryRepo } from '../../apps/server/src/modules/iot/telemetry/telemetry-query.repo';
import { tenantTimeZone } from '../../apps/server/src/modules/iot/telemetry/telemetry-settings';
import { alternate, getData, type LoadTarget } from './monitor-calls';
import type { MonitorData } from './monitor-data';
import { latencySummary } from './stats';

export const REPORT_CALL = `${MONITOR_REPORT_CALLS.query}?area=${irrigationArea.code}`;
const HOUR_MS = 3_600_000;

interface Ask {
  deviceIds: string[];
  keys: readonly string[];
  start: Date;
  end: Date;
}

/** The report's range: the whole hours of the readings, up to the hour of the last one. */
export function reportAsk(data: MonitorData): Ask {
  const readings = data.readings!;
  const start = new Date(Math.ceil(readings.first.getTime() / HOUR_MS) * HOUR_MS);
  const end = new Date(Math.floor(readings.last.getTime() / HOUR_MS) * HOUR_MS);
  return { deviceIds: readings.deviceIds, keys: readings.keys, start, end };
}

/** The call's query: hourly, the irrigation area's devices and factors. */
export function reportQuery(ask: Ask): AreaReportQuery {
  return {
    area: irrigationArea.code,
    deviceIds: ask.deviceIds.join(','),
    keys: ask.keys.join(','),
    start: ask.start.toISOString(),
    end: ask.end.toISOString(),
    bucket: 'hour',
  };
}

export function reportPath(ask: Ask): string {
  const query = new URLSearchParams(reportQuery(ask) as Record<string, string>);
  return `${MONITOR_REPORT_CALLS.query}?${query}`;
}

/** One bucket as both sides give it. */
interface Bucket {
  series: string;
  at: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  count: number;
}

/** The peer: the plain GROUP BY per device, key and hour over the raw readings. */
async function peerBuckets(db: Database, tenantId: string, ask: Ask): Promise<Bucket[]> {
  const { rows } = await db.tenant(tenantId, (sql) =>
    sql.query<{
      device: string;
      key: string;
      hour: Date;
      avg: number | null;
      min: number | null;
      max: number | null;
      n: number;
    }>(
      `SELECT device_id::text AS device, key, date_trunc('hour', ts) AS hour,
              avg(value) AS avg, min(value) AS min, max(value) AS max, count(value)::int AS n
         FROM iot_telemetry
        WHERE device_id = ANY($1::bigint[]) AND key = ANY($2::text[]) AND ts >= $3 AND ts <= $4
        GROUP BY device_id, key, date_trunc('hour', ts)
        ORDER BY device_id, key, hour`,
      [ask.deviceIds, ask.keys, ask.start.toISOString(), ask.end.toISOString()],
    ),
  );
  return rows.map((row) => ({
    series: `${row.device}/${row.key}`,
    at: row.hour.getTime(),
    avg: row.avg,
    min: row.min,
    max: row.max,
    count: row.n,
  }));
}

/** The server's answer as buckets, in the peer's order (series by device id, key; time). */
function serverBuckets(report: AreaReport): Bucket[] {
  const buckets: Bucket[] = [];
  for (const series of report.series) {
    series.at.forEach((at, i) => {
      if (series.count[i] === 0) return; // an empty hour: the GROUP BY has no row for it
      buckets.push({
        series: `${series.deviceId}/${series.key}`,
        at,
        avg: series.avg[i] ?? null,
        min: series.min[i] ?? null,
        max: series.max[i] ?? null,
        count: series.count[i]!,
      });
    });
  }
  const byId = (bucket: Bucket) => bucket.series.split('/') as [string, string];
  return buckets.sort((a, b) => {
    const [da, ka] = byId(a);
    const [db, kb] = byId(b);
    return Number(BigInt(da) - BigInt(db)) || (ka < kb ? -1 : ka > kb ? 1 : 0) || a.at - b.at;
  });
}

const close = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Throws unless both sides answer the same buckets (averages may differ in the last bits). */
function sameBuckets(server: Bucket[], peer: Bucket[]): void {
  if (server.length !== peer.length)
    throw new Error(`report: ${server.length} buckets against the peer's ${peer.length}`);
  server.forEach((s, i) => {
    const p = peer[i]!;
    if (
      s.series !== p.series ||
      s.at !== p.at ||
      s.count !== p.count ||
      !close(s.avg, p.avg) ||
      !close(s.min, p.min) ||
      !close(s.max, p.max)
    )
      throw new Error(`report: bucket ${i} ${JSON.stringify(s)} against ${JSON.stringify(p)}`);
  });
}

/**
 * For the profile: the server's own aggregate statement (telemetryQueryRepo.reportAggregate, as
 * the report service calls it for these devices and keys) run alone in the tenant's transaction.
 */
async function serverStatementAlone(db: Database, tenantId: string, ask: Ask, runs: number) {
  const times: number[] = [];
  let rows = 0;
  for (let run = -1; run < runs; run += 1) {
    const t0 = performance.now();
    const answer = await db.tenant(tenantId, async (sql) =>
      telemetryQueryRepo.reportAggregate(
        sql,
        ask.deviceIds,
        [...ask.keys],
        ['cumulativeVolume'],
        ask.start,
        ask.end,
        'hour',
        await tenantTimeZone(sql),
      ),
    );
    if (run >= 0) times.push(performance.now() - t0);
    rows = answer.length;
  }
  return { rows, ...latencySummary(times) };
}

export async function measureReport(
  shuili: LoadTarget,
  peer: Database,
  data: MonitorData,
  plan: { warmup: number; runs: number },
) {
  const ask = reportAsk(data);
  const path = reportPath(ask);
  let buckets = 0;
  let bytes = 0;
  const measured = await alternate(
    plan.runs,
    plan.warmup,
    async () => {
      const report = (await getData(shuili, path)) as AreaReport;
      bytes = JSON.stringify(report).length;
      return serverBuckets(report);
    },
    () => peerBuckets(peer, data.tenantId, ask),
    (server, bare) => {
      sameBuckets(server, bare);
      buckets = server.length;
    },
  );
  return {
    call: `GET ${MONITOR_REPORT_CALLS.query}?area=…&deviceIds=<${ask.deviceIds.length} ids>&keys=${ask.keys.join(',')}&start=${ask.start.toISOString()}&end=${ask.end.toISOString()}&bucket=hour`,
    series: ask.deviceIds.length * ask.keys.length,
    buckets,
    answerKB: Math.round(bytes / 1024),
    ...measured,
    serverStatementAlone: await serverStatementAlone(
      peer,
      data.tenantId,
      ask,
      Math.min(plan.runs, 10),
    ),
  };
}
