import fs from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AREA_DEVICE_CALLS, entityCalls, iotDeviceEntity } from '@shuili/contract';
import { launchBrowser } from '@shuili/test-support/browser';
import { createFreshTarget, openTarget, type Target } from '@shuili/test-support/database-target';
import { canPin, startServer, withPinnedSelf } from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import type { Backend } from '@shuili/test-support/test-server';
import { backends, chosenBy } from './lib/bench-targets';
import { watchLoad } from './lib/machine-load';
import { measureListRoutes, TABLE_ROW } from './lib/monitor-browser';
import {
  exists,
  getData,
  levelRatios,
  loadAtConcurrencies,
  type LoadTarget,
} from './lib/monitor-calls';
import { prepareMonitorData, type MonitorData, type MonitorDataPlan } from './lib/monitor-data';
import { measureOverview, OVERVIEW_CALL } from './lib/monitor-overview';
import { measureReport, REPORT_CALL, reportAsk, reportQuery } from './lib/monitor-report';
import { servicesAlone } from './lib/monitor-services';
import { startPeerProcess } from './lib/peer-process';
import { writeResult } from './lib/results';
import { round } from './lib/stats';
import { buildConsole, upToDateConsoleDist, type BuiltSite } from './lib/web-build';

/** The goals (Performance). */
const GOALS = { listP99Ms: 50, shownMs: 1_000, reportMs: 300, overviewMs: 200 };
const AREA = 'irrigation';
const PAGE_SIZE = 50;
/** The area device list's first page, as its screen asks it. */
const LIST_CALL = `${AREA_DEVICE_CALLS.query}?area=${AREA}&currentPage=1&pageSize=${PAGE_SIZE}`;

interface Plan {
  data: MonitorDataPlan;
  list: { warmup: number; concurrencies: number[]; seconds: number; runs: number };
  browserRuns: number;
  report: { warmup: number; runs: number };
  overview: { warmup: number; runs: number };
  /** Runs of each call's service alone (the profile). */
  servicesRuns: number;
}

/** What both sides of the area list must agree on: rows, values, counts, products. */
function comparable(data: unknown) {
  const page = data as {
    list: Record<string, unknown>[];
    total: number;
    counts: unknown;
    products: { id: string }[];
  };
  const fields = ['id', 'deviceNo', 'deviceName', 'productId', 'projectName', 'zoneName'];
  const more = ['status', 'online', 'lastSeen', 'alarmLevel', 'values', 'valueTimes', 'lat', 'lng'];
  return {
    list: page.list.map((row) =>
      Object.fromEntries([...fields, ...more].map((field) => [field, row[field] ?? null])),
    ),
    total: page.total,
    counts: page.counts,
    products: page.products.map((product) => product.id),
  };
}

/** The area list: p50/p99 and req/s at a few concurrencies against the bare peer. */
async function measureAreaList(shuili: LoadTarget, peer: LoadTarget, plan: Plan) {
  const ours = comparable(await getData(shuili, LIST_CALL));
  const theirs = comparable(await getData(peer, `/?${LIST_CALL.split('?')[1]}`));
  if (!isDeepStrictEqual(ours, theirs))
    throw new Error(
      `area list: the server and the peer differ:\n${JSON.stringify(ours).slice(0, 600)}\n${JSON.stringify(theirs).slice(0, 600)}`,
    );
  // The peer answers any path: it reads the same query string.
  const [s, p] = await withPinnedSelf(0, () =>
    loadAtConcurrencies([shuili, peer], LIST_CALL, plan.list),
  );
  const alone = s!.levels[0]!;
  return {
    call: `GET ${LIST_CALL}`,
    rows: ours.list.length,
    total: ours.total,
    answersEqual: true,
    shuili: s!,
    peer: p!,
    shuiliOverPeer: levelRatios(s!, p!),
    goal: {
      p99Ms: GOALS.listP99Ms,
      measuredAtConnections: alone.connections,
      p99MsMeasured: alone.p99Ms,
      met: alone.p99Ms < GOALS.listP99Ms,
    },
  };
}

/** Navigation to rows visible: the area list and the generic device list on the same data. */
async function measureShown(baseUrl: string, plan: Plan) {
  const browser = await launchBrowser();
  try {
    const routes = await measureListRoutes(
      browser,
      baseUrl,
      [
        {
          name: 'area device list',
          path: '/irrigation/irrigationDevice',
          listCall: AREA_DEVICE_CALLS.query,
          rowSelector: '[data-testid="area-device-row"]',
        },
        {
          name: 'generic device list (peer)',
          path: '/iot/deviceList',
          listCall: entityCalls(iotDeviceEntity).query,
          rowSelector: TABLE_ROW,
        },
      ],
      plan.browserRuns,
    );
    const [area, generic] = routes;
    return {
      routes,
      shuiliOverPeer: {
        firstVisitP50: round(area!.firstVisit.p50Ms / generic!.firstVisit.p50Ms),
        secondVisitP50: round(area!.secondVisit.p50Ms / generic!.secondVisit.p50Ms),
      },
      goal: {
        ms: GOALS.shownMs,
        firstVisitP50Ms: area!.firstVisit.p50Ms,
        met: area!.firstVisit.p50Ms < GOALS.shownMs,
      },
    };
  } finally {
    await browser.close();
  }
}

type Part<T> = T | { missing: string };

/** The parts to run, from MONITOR_PARTS (e.g. `list,report`): every part when it is unset. */
const chosen = chosenBy('MONITOR_PARTS');
const notChosen = { missing: 'not chosen (MONITOR_PARTS)' };

/** MONITOR_CPU_PROFILE=<dir> runs the server under node --cpu-prof and writes its profile there. */
const profileDir = process.env.MONITOR_CPU_PROFILE;

/** One database: its data, the server and the peers, every part that exists. */
async function measureBackend(backend: Backend, plan: Plan, site: BuiltSite | undefined) {
  const fresh = await createFreshTarget(backend);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    // PGlite belongs to one process: the peers read a copy of the server's folder.
    const [serverTarget, peerTarget]: [Target, Target] =
      fresh.target.kind === 'pglite'
        ? [
            { kind: 'pglite', dataDir: path.join(fresh.target.dataDir, 'server') },
            { kind: 'pglite', dataDir: path.join(fresh.target.dataDir, 'peer') },
          ]
        : [fresh.target, fresh.target];
    // The report's readings on PostgreSQL (the goal is there); smoke runs it everywhere.
    const withReport = backend === 'postgres' || plan.data.devices < 1_000;
    const data: MonitorData = await prepareMonitorData(serverTarget, {
      ...plan.data,
      report: withReport ? plan.data.report : undefined,
    });
    console.log(
      `monitor ${backend}: ${data.devices} devices (${data.valveIds.length} valves),` +
        ` ${data.latestRows} latest values, ${data.readings?.rows ?? 0} readings` +
        ` in ${round(data.seconds.devices + data.seconds.readings + data.seconds.analyse)} s`,
    );
    if (serverTarget.kind === 'pglite' && peerTarget.kind === 'pglite')
      await fs.cp(serverTarget.dataDir, peerTarget.dataDir, { recursive: true });

    // Without the demo simulation, which would change demo's devices (online, last seen, values)
    // under the server alone, so that the server and the peers read the same rows.
    const server = await startServer(
      {
        SIM: 'false',
        ...(site ? { WEB_DIST: site.dir } : {}),
        ...(serverTarget.kind === 'postgres' ? { DATABASE_URL: serverTarget.url } : {}),
      },
      1,
      {
        ...(serverTarget.kind === 'pglite' ? { dataDir: serverTarget.dataDir } : {}),
        ...(profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {}),
      },
    );
    cleanups.unshift(server.stop);
    const shuili: LoadTarget = {
      name: 'shuili',
      url: server.url,
      headers: { authorization: `Bearer ${await signIn(server.url)}` },
    };
    const listPeer = await startPeerProcess('area-list-peer.ts', {
      target: peerTarget,
      tenantId: data.tenantId,
    });
    cleanups.unshift(listPeer.stop);
    const peer: LoadTarget = { name: 'peer', url: listPeer.url, headers: {} };

    // A part that fails says what the server logged (a 500 names only "it has been logged").
    const logged = <T>(work: Promise<T>) =>
      work.catch((error: Error) => {
        throw new Error(
          `${backend}: ${error.message}\nthe server printed:\n${server.output().slice(-4000)}`,
        );
      });
    const missing = async (call: string) =>
      (await exists(shuili, call))
        ? undefined
        : { missing: `GET ${call.split('?')[0]} answers 404` };
    const areaList: Part<Awaited<ReturnType<typeof measureAreaList>>> = !chosen('list')
      ? notChosen
      : ((await missing(LIST_CALL)) ?? (await logged(measureAreaList(shuili, peer, plan))));
    const shown: Part<Awaited<ReturnType<typeof measureShown>>> =
      !chosen('shown') || !site
        ? notChosen
        : await measureShown(server.url, plan).catch((error: Error) => ({
            missing: `the area list showed no rows: ${error.message}`,
          }));

    // The list's peer is done: on PGlite it holds the copy the SQL peers open next.
    await listPeer.stop();

    // The report and the overview: one request at a time beside the peer's SQL, run from this
    // process on its own connections (on PGlite: the copy).
    const sqlPeer = await openTarget(peerTarget, 2);
    cleanups.unshift(() => sqlPeer.close());
    const report = !chosen('report')
      ? notChosen
      : !data.readings
        ? { missing: 'no readings on this database (the report runs on PostgreSQL)' }
        : ((await missing(REPORT_CALL)) ??
          (await logged(
            withPinnedSelf(0, () => measureReport(shuili, sqlPeer, data, plan.report)),
          )));
    const overview = !chosen('overview')
      ? notChosen
      : ((await missing(OVERVIEW_CALL)) ??
        (await logged(
          withPinnedSelf(0, () => measureOverview(shuili, sqlPeer, data, plan.overview)),
        )));
    // For the profile: each measured call's service alone, without HTTP.
    const services = await withPinnedSelf(0, () =>
      servicesAlone(sqlPeer, data.tenantId, plan.servicesRuns, {
        areaList: !('missing' in areaList),
        report: 'missing' in report ? undefined : reportQuery(reportAsk(data)),
        overview: !('missing' in overview),
      }),
    );
    return {
      backend,
      data: {
        devices: data.devices,
        valves: data.valveIds.length,
        latestValues: data.latestRows,
        openAlarms: data.openAlarms,
        operationRecords: data.commands,
        readings: data.readings
          ? {
              devices: data.readings.deviceIds.length,
              keys: data.readings.keys,
              rows: data.readings.rows,
              from: data.readings.first.toISOString(),
              to: data.readings.last.toISOString(),
            }
          : null,
        seconds: {
          devices: round(data.seconds.devices),
          readings: round(data.seconds.readings),
          analyse: round(data.seconds.analyse),
        },
      },
      areaList,
      shown,
      report,
      overview,
      servicesAlone: services,
    };
  } finally {
    for (const cleanup of cleanups) await cleanup();
    await fresh.remove();
  }
}

/**
 * The monitoring screens' calls (issue 18, Performance), each beside a peer in the same run:
 * the area device list of 5,000 valves (p99 < 50 ms; req/s at a few concurrencies; a bare
 * node:http + SQL peer) and how fast its screen shows rows in Chromium (< 1 s; the generic device
 * list as peer), the data report of 50 devices × 30 days by hour on PostgreSQL (< 300 ms; the
 * plain GROUP BY) and the workbench overview of 10,000 devices (< 200 ms; the plain grouped
 * counts), on PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
export async function runMonitor(smoke: boolean) {
  const started = performance.now();
  const load = watchLoad();
  const plan: Plan = smoke
    ? {
        data: { devices: 300, valves: 120, report: { devices: 5, days: 2, stepMinutes: 60 } },
        list: { warmup: 3, concurrencies: [1, 10], seconds: 0.3, runs: 1 },
        browserRuns: 1,
        report: { warmup: 1, runs: 2 },
        overview: { warmup: 1, runs: 2 },
        servicesRuns: 2,
      }
    : {
        data: {
          devices: 10_000,
          valves: 5_000,
          report: { devices: 50, days: 30, stepMinutes: 5 },
        },
        list: { warmup: 50, concurrencies: [1, 10, 50], seconds: 4, runs: 2 },
        browserRuns: 5,
        report: { warmup: 3, runs: 20 },
        overview: { warmup: 5, runs: 50 },
        servicesRuns: 10,
      };
  // The console as the sources are now (smoke reuses an up-to-date apps/web/dist).
  const reused = smoke && chosen('shown') ? await upToDateConsoleDist() : undefined;
  const site = chosen('shown') ? (reused ?? (await buildConsole())) : undefined;
  const results = [];
  try {
    // MONITOR_BACKENDS (e.g. `postgres`) narrows the databases, for profiling.
    for (const backend of backends().filter(chosenBy('MONITOR_BACKENDS')))
      results.push(await measureBackend(backend, plan, site));
  } finally {
    await site?.remove();
  }
  const summary = {
    pinned: (await canPin())
      ? 'server and list peer on core 1, load generator and SQL peers on core 0, Chromium on both'
      : false,
    plan,
    goals: GOALS,
    peers: {
      areaList:
        'node:http + pg (pool of 10; PGlite: a copy of the folder) running plain SQL for the same page in the same tenant transaction: counts, page of 50 with zone, project and alarm level, latest values, products; no auth, no validation, JSON.stringify',
      shown: 'the generic device list /iot/deviceList (ResourcePage, first page) on the same data',
      report: 'the plain GROUP BY over the raw readings, in SQL from the benchmark process',
      overview: 'the plain grouped counts in SQL from the benchmark process',
    },
    console: !site
      ? 'not built'
      : reused
        ? 'apps/web/dist (up to date, reused)'
        : 'built into a temporary folder',
    machineLoad: load(),
    runSeconds: round((performance.now() - started) / 1000),
    results,
  };
  const file = await writeResult('monitor', smoke, summary);
  return { file, summary };
}
