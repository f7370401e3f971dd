import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import { rigUnavailable, startRig, type Rig } from '../scripts/cluster/rig';
import { ADMIN_DATABASE_URL } from '../scripts/cluster/rig-database';
import { API_MIX, apiStep, checkMix, type ApiStep } from './lib/cluster-api';
import { measureBrowsers, type BrowserPlan } from './lib/cluster-browsers';
import { freeDiskBytes, project } from './lib/cluster-capacity';
import { backendWatcher, watchCpu } from './lib/cluster-cpu';
import { measureStorage, type StoragePlan } from './lib/cluster-storage';
import { watchLoad } from './lib/machine-load';
import { writeResult } from './lib/results';
import { median, round } from './lib/stats';

interface Plan {
  nodes: number;
  api: ApiStep & { warmupSeconds: number; idleSeconds: number; rounds: number };
  browsers: BrowserPlan;
  storage: StoragePlan;
}

const PLANS: Record<'smoke' | 'full', Plan> = {
  smoke: {
    nodes: 3,
    api: { connections: 8, seconds: 1, warmupSeconds: 1, idleSeconds: 1, rounds: 1 },
    browsers: { devices: 20, perSecond: 40, browsers: [2], seconds: 1, warmupSeconds: 1 },
    storage: { tenants: 2, devicesPerTenant: 10, hours: 1, bulkSeconds: 0.5 },
  },
  full: {
    nodes: 3,
    api: { connections: 32, seconds: 15, warmupSeconds: 10, idleSeconds: 10, rounds: 2 },
    browsers: { devices: 200, perSecond: 200, browsers: [20, 60], seconds: 15, warmupSeconds: 10 },
    storage: { tenants: 10, devicesPerTenant: 100, hours: 4, bulkSeconds: 10 },
  },
};

/** One measured step on the rig as it stands: the mix through nginx, and every process's CPU. */
async function measureStep(
  rig: Rig,
  backends: () => Promise<number[]>,
  running: number,
  token: string,
  step: ApiStep,
) {
  const stopCpu = await watchCpu({
    nodes: () => rig.nodes.slice(0, running).map((node) => ({ name: node.name, pid: node.pid })),
    backends,
  });
  const api = await apiStep(rig.url, token, step);
  const cpu = await stopCpu();
  const nodeCpu = rig.nodes
    .slice(0, running)
    .reduce((sum, node) => sum + (cpu.percentOfCore[node.name] ?? 0), 0);
  const perRequestMs = (percent: number) =>
    api.perSecond ? round((percent * 10) / api.perSecond, 3) : NaN;
  return {
    nodes: running,
    ...api,
    cpu,
    /** CPU milliseconds a request cost each kind of process (nodes together). */
    cpuMsPerRequest: {
      nodes: perRequestMs(nodeCpu),
      nginx: perRequestMs(cpu.percentOfCore.nginx ?? 0),
      postgres: perRequestMs(cpu.percentOfCore['postgres (this database)'] ?? 0),
      loadGenerator: perRequestMs(cpu.percentOfCore['load generator'] ?? 0),
    },
  };
}

type Step = Awaited<ReturnType<typeof measureStep>>;

/**
 * Three nodes, then one (the other two stopped: nginx skips them), round after round, so a busy
 * moment of the shared machine falls on both alike. The ratio is taken round by round.
 */
async function measureApi(plan: Plan) {
  // The demo's card sessions are append-only ledger entries that would keep the demo's wells,
  // which the browsers' bench devices replace (as in e2e/cluster-devices.test.ts).
  const rig = await startRig({ nodes: plan.nodes, env: { DEMO_CARD_SESSIONS: 'false' } });
  let watcher: Awaited<ReturnType<typeof backendWatcher>> | undefined;
  try {
    watcher = await backendWatcher(ADMIN_DATABASE_URL, new URL(rig.databaseUrl).pathname.slice(1));
    const backends = watcher.pids;
    const token = await signIn(rig.url);
    await checkMix(rig.url, token);
    // What the nodes and the database use with no request at all (timers, heartbeats, polling):
    // a fixed cost per node that three nodes pay three times.
    const stopIdle = await watchCpu({
      nodes: () => rig.nodes.map((node) => ({ name: node.name, pid: node.pid })),
      backends,
    });
    await new Promise((resolve) => setTimeout(resolve, plan.api.idleSeconds * 1000));
    const idle = await stopIdle();
    const steps: { all: Step; one: Step }[] = [];
    // Each configuration is warmed before it is measured: a node started again, and every
    // PostgreSQL connection, plans its statements afresh (prepared statements, access checks).
    const warm = () =>
      apiStep(rig.url, token, {
        connections: plan.api.connections,
        seconds: plan.api.warmupSeconds,
      });
    for (let r = 0; r < plan.api.rounds; r += 1) {
      await warm();
      const all = await measureStep(rig, backends, plan.nodes, token, plan.api);
      await Promise.all(rig.nodes.slice(1).map((node) => node.stop()));
      await warm();
      const one = await measureStep(rig, backends, 1, token, plan.api);
      steps.push({ all, one });
      await Promise.all(rig.nodes.slice(1).map((node) => node.start()));
    }
    // Browsers on all the nodes, started again: a stopped node's persistent sessions keep their
    // turn of the readings (docs/iot.md "Consumer sessions"), which would wait for its return.
    const browsers = await measureBrowsers(rig, plan.nodes, token, backends, plan.browsers);
    const ratios = steps.map(({ all, one }) => round(all.perSecond / one.perSecond));
    const pick = (which: 'all' | 'one') => steps.map((step) => step[which]);
    const summary = (list: Step[]) => ({
      perSecond: round(median(list.map((s) => s.perSecond))),
      p99Ms: round(median(list.map((s) => s.latency.p99Ms))),
      errors: list.reduce((sum, s) => sum + s.errors, 0),
    });
    const all = summary(pick('all'));
    return {
      mix: API_MIX.map((call) => `GET ${call.path}`),
      threeNodes: all,
      oneNode: summary(pick('one')),
      perNodeOfThree: round(all.perSecond / plan.nodes),
      idle,
      threeOverOne: round(median(ratios)),
      threeOverOneByRound: ratios,
      rounds: steps,
      browsers,
    };
  } finally {
    await watcher?.close();
    await rig.stop();
  }
}

/** Browsers per node: the realtime benchmark's measured node (PostgreSQL), read from its result. */
async function browsersPerNode() {
  const file = path.join(REPO_ROOT, 'bench/results/realtime.json');
  const result = JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')) as {
    measuredAt?: string;
    plan?: { browsers: number; perSecond: number; devices: number };
    results?: {
      backend: string;
      overall: { p99Ms: number };
      missed: number;
      brokerCpuPercent: number;
    }[];
  };
  const postgres = result.results?.find((r) => r.backend === 'postgres');
  if (!postgres || !result.plan) return undefined;
  return {
    source: 'bench/results/realtime.json (one node, embedded broker, PostgreSQL)',
    measuredAt: result.measuredAt,
    browsers: result.plan.browsers,
    messagesPerSecondEach: result.plan.perSecond,
    deliveriesPerSecond: result.plan.browsers * result.plan.perSecond,
    p99Ms: postgres.overall.p99Ms,
    missed: postgres.missed,
    nodeCpuPercent: postgres.brokerCpuPercent,
  };
}

/**
 * `npm run bench -- cluster`: what the capacity page (docs/scaling.md) states. API requests a
 * second through nginx to three nodes and to one on one PostgreSQL, with the CPU of every process
 * (on two cores the total cannot triple); what a telemetry reading costs on disk, written by the
 * server's own writer, and from that what one PostgreSQL holds at N devices; browsers per node from
 * the realtime benchmark. Needs nginx, Mosquitto and PostgreSQL (TEST_DATABASE_URL); without them
 * the parts that need them are skipped and say why.
 */
export async function runCluster(smoke: boolean) {
  const started = performance.now();
  const load = watchLoad();
  const plan = PLANS[smoke ? 'smoke' : 'full'];
  const missing = process.env.TEST_DATABASE_URL
    ? await rigUnavailable()
    : 'TEST_DATABASE_URL is not set';
  const api = missing ? { skipped: missing } : await measureApi(plan);
  const storage = process.env.TEST_DATABASE_URL
    ? await measureStorage(process.env.TEST_DATABASE_URL, plan.storage)
    : undefined;
  let capacity;
  if (storage) {
    const disk = await freeDiskBytes(ADMIN_DATABASE_URL);
    const measured = {
      partitionHeap: storage.bytesPerReading.partition.heap,
      partitionIndex: storage.bytesPerReading.partition.index,
      hourlyRow: storage.bytesPerHourlyRow.compacted,
      writerPerSecond: storage.writer.readingsPerSecond,
      bulkInsertPerSecond: storage.bulkInsert.pointsPerSecond,
      freeDiskBytes: disk.bytes,
    };
    capacity = {
      freeDisk: { path: disk.path, GB: round(disk.bytes / 1e9, 1) },
      assumptions:
        'one reading per key a minute, 3 keys a device, retention 365 days (the default)',
      scenarios: [1_000, 10_000, 50_000, 100_000].map((devices) => project(measured, devices, 3)),
    };
  }
  const summary = {
    plan,
    api,
    storage: storage ?? { skipped: 'TEST_DATABASE_URL is not set' },
    capacity,
    browsersPerNode: await browsersPerNode(),
    machineLoad: load(),
    runSeconds: round((performance.now() - started) / 1000),
  };
  const file = await writeResult('cluster', smoke, summary);
  return { file, summary };
}
