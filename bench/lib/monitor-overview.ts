// The workbench overview of the monitor benchmark: the console's overview call for a tenant of
// 10,000 devices, beside the plain grouped counts in SQL (each area's devices by state, open
// alarms by level) run from the benchmark process. The overview also answers every located
// device of the areas for its map; its statements over every device are timed alone too, for the
// profile.
import {
  ALARM_LEVELS,
  DEVICE_AREAS,
  WORKBENCH_CALLS,
  type WorkbenchOverview,
} from '@shuili/contract';
import { isDeepStrictEqual } from 'node:util';
import type { Database, Sql } from '../../apps/server/src/db/database';
import { workbenchRepo } from '../../apps/server/src/modules/monitor/workbench/workbench.repo';
import { alternate, getData, type LoadTarget } from './monitor-calls';
import type { MonitorData } from './monitor-data';
import { latencySummary } from './stats';

export const OVERVIEW_CALL = WORKBENCH_CALLS.overview;

interface Counts {
  areas: { area: string; total: number; online: number; offline: number; fault: number }[];
  levels: Record<string, number>;
}

// The workbench counts the areas that have devices (traceability has pages only).
const KINDS = DEVICE_AREAS.flatMap((area) => area.kinds);

/** The peer: two GROUP BY statements in the tenant's transaction. */
async function peerCounts(db: Database, tenantId: string): Promise<Counts> {
  return db.tenant(tenantId, async (sql) => {
    const kinds = await sql.query<{ kind: string; total: number; online: number; fault: number }>(
      `SELECT p.device_kind AS kind, count(*)::int AS total,
              count(*) FILTER (WHERE d.online)::int AS online,
              count(*) FILTER (WHERE d.status <> 0)::int AS fault
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = ANY($1::text[])
        GROUP BY p.device_kind`,
      [KINDS],
    );
    const alarms = await sql.query<{ level: string; open: number }>(
      `SELECT level, count(*)::int AS open FROM iot_alarm_record WHERE state = 'open'
        GROUP BY level`,
    );
    return {
      areas: DEVICE_AREAS.map((area) => {
        const mine = kinds.rows.filter((row) => area.kinds.includes(row.kind as never));
        const sum = (pick: (row: (typeof mine)[number]) => number) =>
          mine.reduce((total, row) => total + pick(row), 0);
        const total = sum((row) => row.total);
        const online = sum((row) => row.online);
        return {
          area: area.code,
          total,
          online,
          offline: total - online,
          fault: sum((row) => row.fault),
        };
      }),
      levels: Object.fromEntries(
        ALARM_LEVELS.map((level) => [
          level,
          alarms.rows.find((row) => row.level === level)?.open ?? 0,
        ]),
      ),
    };
  });
}

/** The server's answer reduced to what the peer counts. */
function serverCounts(overview: WorkbenchOverview): Counts {
  return {
    areas: overview.areas.map(({ area, total, online, offline, fault }) => ({
      area,
      total,
      online,
      offline,
      fault,
    })),
    levels: { ...overview.alarms!.levels },
  };
}

/** Runs one statement `runs` times in the tenant's transaction (after one warm-up). */
async function timed(
  db: Database,
  tenantId: string,
  runs: number,
  statement: (sql: Sql) => Promise<unknown[]>,
) {
  const times: number[] = [];
  let rows = 0;
  for (let run = -1; run < runs; run += 1) {
    const t0 = performance.now();
    const answer = await db.tenant(tenantId, statement);
    if (run >= 0) times.push(performance.now() - t0);
    rows = answer.length;
  }
  return { rows, ...latencySummary(times) };
}

/**
 * For the profile: the overview's statements over every device, as the server runs them
 * (workbenchRepo), each alone in the tenant's transaction.
 */
async function statementsAlone(db: Database, tenantId: string, runs: number) {
  return {
    countsByKind: await timed(db, tenantId, runs, (sql) => workbenchRepo.countsByKind(sql, KINDS)),
    alarmedByKind: await timed(db, tenantId, runs, (sql) =>
      workbenchRepo.alarmedByKind(sql, KINDS),
    ),
    mapDevices: await timed(db, tenantId, runs, (sql) => workbenchRepo.mapDevices(sql, KINDS)),
    deviceAlarmLevels: await timed(db, tenantId, runs, (sql) =>
      workbenchRepo.deviceAlarmLevels(sql),
    ),
  };
}

export async function measureOverview(
  shuili: LoadTarget,
  peer: Database,
  data: MonitorData,
  plan: { warmup: number; runs: number },
) {
  let mapDevices = 0;
  let bytes = 0;
  const measured = await alternate(
    plan.runs,
    plan.warmup,
    async () => {
      const overview = (await getData(shuili, OVERVIEW_CALL)) as WorkbenchOverview;
      mapDevices = overview.map.ids.length;
      bytes = JSON.stringify(overview).length;
      return serverCounts(overview);
    },
    () => peerCounts(peer, data.tenantId),
    (server, bare) => {
      if (!isDeepStrictEqual(server, bare))
        throw new Error(
          `overview: the server and the peer count differently:\n${JSON.stringify(server)}\n${JSON.stringify(bare)}`,
        );
    },
  );
  return {
    call: `GET ${OVERVIEW_CALL}`,
    devices: data.devices,
    areaDevices: (await peerCounts(peer, data.tenantId)).areas.reduce(
      (sum, area) => sum + area.total,
      0,
    ),
    mapDevices,
    answerKB: Math.round(bytes / 1024),
    ...measured,
    statementsAlone: await statementsAlone(peer, data.tenantId, Math.min(plan.runs, 10)),
  };
}
