import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../apps/server/src/db/database';
import { keepAliveClient } from './lib/http-load';
import {
  aggregatePath,
  peerAggregate,
  reportCalls,
  sameBuckets,
  serverBuckets,
  TENANT_DAY_SQL,
  type CallSpec,
} from './lib/report-calls';
import { prepareReadings, type PreparedReadings, type ReadingsPlan } from './lib/report-data';
import { watchLoad } from './lib/machine-load';
import { writeResult } from './lib/results';
import { canPin, startServer, withPinnedSelf } from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import { withFreshTarget } from '@shuili/test-support/database-target';
import type { Backend } from '@shuili/test-support/test-server';
import { backends } from './lib/bench-targets';
import { median, quantile, round } from './lib/stats';
import { openTarget, type Target } from '@shuili/test-support/database-target';

/** The goal: the hourly report of one device's week in under 20 ms. */
const DEVICE_WEEK_GOAL_MS = 20;
const HOUR_MS = 3_600_000;

interface Plan {
  readings: ReadingsPlan;
  warmup: number;
  runs: number;
  /** Runs of the tenant-wide reference statements (each reads a day of every device). */
  referenceRuns: number;
}

const timings = (times: number[]) => ({
  runs: times.length,
  p50Ms: round(median(times)),
  p95Ms: round(quantile(times, 0.95)),
  minMs: round(Math.min(...times)),
  maxMs: round(Math.max(...times)),
});

const elapsed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const result = await work();
  return [result, performance.now() - t0];
};

/**
 * One call, run by run: the server's HTTP call and the peer's SQL for the same devices and range,
 * in alternating order (whichever goes second may find the pages the first one read cached), each
 * answer checked equal to the other's.
 */
async function measureCall(
  call: CallSpec,
  server: ReturnType<typeof keepAliveClient>,
  peer: Database,
  data: PreparedReadings,
  plan: Plan,
) {
  const shuiliTimes: number[] = [];
  const peerTimes: number[] = [];
  let buckets = 0;
  for (let run = -plan.warmup; run < plan.runs; run += 1) {
    const ask = call.ask(run + plan.warmup * 1000);
    const viaServer = () => elapsed(() => server.get(aggregatePath(ask)));
    const viaPeer = () =>
      elapsed(() => peer.system((sql) => peerAggregate(sql, data.tenantId, ask)));
    const serverFirst = run % 2 === 0;
    const [first, second] = serverFirst
      ? [await viaServer(), await viaPeer()]
      : [await viaPeer(), await viaServer()];
    const [answer, serverMs] = (serverFirst ? first : second) as Awaited<
      ReturnType<typeof viaServer>
    >;
    const [peerRows, peerMs] = (serverFirst ? second : first) as Awaited<
      ReturnType<typeof viaPeer>
    >;
    const shuiliRows = serverBuckets(answer.status, answer.body);
    const difference = sameBuckets(shuiliRows, peerRows);
    if (difference) throw new Error(`${call.name}: the server and the peer differ: ${difference}`);
    if (shuiliRows.length === 0) throw new Error(`${call.name}: no buckets answered`);
    if (run < 0) continue;
    shuiliTimes.push(serverMs);
    peerTimes.push(peerMs);
    buckets = shuiliRows.length;
  }
  const shuili = timings(shuiliTimes);
  const peerTimings = timings(peerTimes);
  return {
    call: call.name,
    describe: call.describe,
    example: `GET ${aggregatePath(call.ask(0))}`,
    bucketsPerAnswer: buckets,
    answersEqual: true,
    shuili: shuili,
    peer: peerTimings,
    shuiliOverPeerP50: round(shuili.p50Ms / peerTimings.p50Ms),
  };
}

/** The tenant-wide day, raw and from the rollup, straight in SQL (no call answers it). */
async function measureTenantDay(peer: Database, data: PreparedReadings, plan: Plan) {
  const end = new Date(Math.floor(data.last.getTime() / HOUR_MS) * HOUR_MS);
  const params = [data.tenantId, new Date(end.getTime() - 24 * HOUR_MS).toISOString(), end];
  const results: Record<string, ReturnType<typeof timings>> = {};
  const answers: Record<string, string> = {};
  for (const [name, text] of Object.entries(TENANT_DAY_SQL)) {
    const times: number[] = [];
    for (let run = -1; run < plan.referenceRuns; run += 1) {
      const [rows, ms] = await elapsed(() =>
        peer.system((sql) => sql.query<{ key: string; hour: Date; n: string }>(text, params)),
      );
      answers[name] = JSON.stringify(rows.rows.map((row) => [row.key, row.hour, String(row.n)]));
      if (run >= 0) times.push(ms);
    }
    results[name] = timings(times);
  }
  if (answers.raw !== answers.rollup) throw new Error('tenant day: rollup and raw counts differ');
  return {
    describe: `every device of the tenant (${data.deviceIds.length}), per key and hour, last 24 whole hours: SQL only, no call answers it`,
    fromReadings: results.raw!,
    fromRollup: results.rollup!,
  };
}

async function measureBackend(backend: Backend, plan: Plan) {
  return withFreshTarget(backend, async (target) => {
    const cleanups: (() => Promise<void>)[] = [];
    try {
      // PGlite belongs to one process: the peer reads a copy of the server's folder.
      const [serverTarget, peerTarget]: [Target, Target] =
        target.kind === 'pglite'
          ? [
              { kind: 'pglite', dataDir: path.join(target.dataDir, 'server') },
              { kind: 'pglite', dataDir: path.join(target.dataDir, 'peer') },
            ]
          : [target, target];
      const data = await prepareReadings(serverTarget, plan.readings);
      console.log(
        `report ${backend}: ${data.rows} readings written in ${round(data.loadSeconds)} s` +
          ` (analysed in ${round(data.analyseSeconds)} s)`,
      );
      // The copy is made while the database is closed.
      const [, copyMs] = await elapsed(async () => {
        if (serverTarget.kind === 'pglite' && peerTarget.kind === 'pglite')
          await fs.cp(serverTarget.dataDir, peerTarget.dataDir, { recursive: true });
      });
      const server = await startServer(
        {
          SIM: '0',
          ...(serverTarget.kind === 'postgres' ? { DATABASE_URL: serverTarget.url } : {}),
        },
        1,
        serverTarget.kind === 'pglite' ? { dataDir: serverTarget.dataDir } : {},
      );
      cleanups.unshift(server.stop);
      const peer = await openTarget(peerTarget, 2);
      cleanups.unshift(() => peer.close());
      const client = keepAliveClient(
        server.url,
        { authorization: `Bearer ${await signIn(server.url)}` },
        1,
      );
      cleanups.unshift(async () => client.close());
      // The load generator (this process, and the peer's queries it runs) on core 0, the server on 1.
      const [calls, tenantDay] = await withPinnedSelf(0, async () => {
        const calls = [];
        for (const call of reportCalls(data))
          calls.push(await measureCall(call, client, peer, data, plan));
        return [calls, await measureTenantDay(peer, data, plan)] as const;
      });
      const deviceWeek = calls.find((call) => call.call === 'device week')!;
      return {
        backend,
        rows: data.rows,
        devices: data.deviceIds.length,
        readingsFrom: data.first.toISOString(),
        readingsTo: data.last.toISOString(),
        loadSeconds: round(data.loadSeconds),
        analyseSeconds: round(data.analyseSeconds),
        peerCopySeconds: round(copyMs / 1000),
        calls,
        tenantDay,
        deviceWeekGoal: {
          goalMs: DEVICE_WEEK_GOAL_MS,
          p50Ms: deviceWeek.shuili.p50Ms,
          met: deviceWeek.shuili.p50Ms < DEVICE_WEEK_GOAL_MS,
        },
      };
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  });
}

/**
 * Hourly telemetry reports over 10 million stored readings (1,000 devices × 10,080: three keys
 * every 3 minutes for 7 days): one device's week and 20 devices' day through the console's
 * aggregate call, beside the plain GROUP BY of the same readings in SQL, on each database.
 */
export async function runReport(smoke: boolean) {
  const started = performance.now();
  const load = watchLoad();
  const plan: Plan = smoke
    ? {
        readings: { devices: 10, instants: 7 * 24, stepMinutes: 60 },
        warmup: 1,
        runs: 3,
        referenceRuns: 1,
      }
    : {
        readings: { devices: 1000, instants: (7 * 24 * 60) / 3, stepMinutes: 3 },
        warmup: 5,
        runs: 20,
        referenceRuns: 5,
      };
  const results = [];
  for (const backend of backends()) results.push(await measureBackend(backend, plan));
  const summary = {
    pinned: await canPin(),
    reading: 'one key of one device at one instant (one row of iot_telemetry)',
    plan,
    goal: { deviceWeekP50Ms: DEVICE_WEEK_GOAL_MS },
    peer: 'the plain GROUP BY date_trunc(hour) over the raw readings, in SQL on the same database (pg / PGlite in the benchmark process), no server',
    machineLoad: load(),
    runSeconds: round((performance.now() - started) / 1000),
    results,
  };
  const file = await writeResult('report', smoke, summary);
  return { file, summary };
}
