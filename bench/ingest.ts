import { withFreshTarget } from '@shuili/test-support/database-target';
import { backends, chosenBy } from './lib/bench-targets';
import { bulkInsertPeer } from './lib/bulk-insert-peer';
import {
  BENCH_KEYS,
  prepareDevices,
  telemetryPayloads,
  type BenchDevice,
} from '@shuili/test-support/ingest-data';
import {
  browserOptions,
  serverWarnings,
  signIn,
  startIotServer,
} from '@shuili/test-support/iot-server';
import { mosquittoAvailable, startMosquitto } from '@shuili/test-support/mosquitto-peer';
import { countingSubscriber } from './lib/counting-subscriber';
import {
  anonymousLoad,
  connectDevices,
  cpuSeconds,
  deviceLoad,
  disconnectAll,
  type LoadDevice,
  publishStep,
  residentMiB,
  type StepResult,
} from './lib/mqtt-load';
import { writeResult } from './lib/results';
import { acknowledgedReadings } from './lib/acknowledged-readings';
import { measureExternal } from './lib/external-ingest';
import { watchLoad } from './lib/machine-load';
import { withPinnedSelf } from '@shuili/test-support/server-process';
import { round } from './lib/stats';
import { countStoredPoints } from './lib/telemetry-count';
import { openTarget, type Target } from '@shuili/test-support/database-target';

interface Plan {
  devices: number;
  /** Messages per second in total; 0 = as fast as acknowledgements come back. */
  rates: number[];
  seconds: number;
  /** Seconds at a low rate before the steps (JIT, caches, connection pools), not recorded. */
  warmupSeconds: number;
  bulkSeconds: number;
  /** The external-broker runs: one "as fast as the nodes store" step of this length. */
  external: { seconds: number; warmupSeconds: number; minBacklog: number; drainSeconds: number };
  /** Node counts of the cluster comparison (every node on every core). */
  clusterNodes: number[];
}

const payloadOf = telemetryPayloads();

interface StepRow extends StepResult {
  pointsPerSecond: number;
  /** Publish to receipt by a signed-in browser's MQTT-over-WebSocket subscription. */
  browserP50Ms?: number;
  browserP99Ms?: number;
  serverRssMiB?: number;
  /** Server CPU time per 1,000 stored points: steadier than throughput on a busy machine. */
  serverCpuMsPer1000Points?: number;
}

/** Runs every step against one broker URL, with an optional watcher of the deliveries. */
async function runSteps(
  brokerUrl: string,
  devices: LoadDevice[],
  plan: Plan,
  watch: { takeDelays(): { p50Ms: number; p99Ms: number } } | undefined,
  serverPid?: number,
  onAcknowledged?: (device: number, payload: string) => void,
): Promise<{ steps: StepRow[]; warmupAcknowledged: number }> {
  const clients = await connectDevices(brokerUrl, devices);
  try {
    const rows: StepRow[] = [];
    const warmup =
      plan.warmupSeconds > 0
        ? await publishStep(clients, devices, payloadOf, {
            perSecond: 500,
            seconds: plan.warmupSeconds,
            onAcknowledged,
          })
        : undefined;
    for (const rate of plan.rates) {
      watch?.takeDelays();
      let peakRss = 0;
      const sampler = serverPid
        ? setInterval(
            () => void residentMiB(serverPid).then((mib) => (peakRss = Math.max(peakRss, mib))),
            500,
          )
        : undefined;
      const cpuBefore = serverPid ? await cpuSeconds(serverPid) : 0;
      const step = await publishStep(clients, devices, payloadOf, {
        perSecond: rate,
        seconds: plan.seconds,
        onAcknowledged,
      });
      const cpuUsed = serverPid ? (await cpuSeconds(serverPid)) - cpuBefore : 0;
      if (sampler) clearInterval(sampler);
      const delays = watch?.takeDelays();
      rows.push({
        ...step,
        pointsPerSecond: step.ackedPerSecond * BENCH_KEYS.length,
        ...(delays ? { browserP50Ms: round(delays.p50Ms), browserP99Ms: round(delays.p99Ms) } : {}),
        ...(serverPid
          ? {
              serverRssMiB: peakRss,
              serverCpuMsPer1000Points: round(
                (cpuUsed * 1e6) / Math.max(1, step.acknowledged * BENCH_KEYS.length),
              ),
            }
          : {}),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
    return { steps: rows, warmupAcknowledged: warmup?.acknowledged ?? 0 };
  } finally {
    await disconnectAll(clients);
  }
}

/** Shuili end to end on one database: devices -> embedded broker -> stored, plus a browser. */
async function measureShuili(
  target: Target,
  bench: BenchDevice[],
  plan: Plan,
  readings: ReturnType<typeof acknowledgedReadings>,
) {
  const server = await startIotServer(target, {
    // INGEST_PROFILE=<folder>: the server writes a CPU profile there when it stops.
    nodeArgs: [
      ...(process.env.INGEST_PROFILE
        ? ['--cpu-prof', '--cpu-prof-dir', process.env.INGEST_PROFILE]
        : []),
      ...(process.env.INGEST_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
  try {
    const token = await signIn(server.url);
    const browser = await countingSubscriber(
      server.wsUrl,
      't/demo/d/+/telemetry',
      browserOptions(token),
    );
    try {
      const { steps, warmupAcknowledged } = await runSteps(
        server.mqttUrl,
        deviceLoad(bench),
        plan,
        browser,
        server.pid,
        readings.record,
      );
      // The browser's copies may still be on their way when the last acknowledgement arrives.
      const acknowledged =
        warmupAcknowledged + steps.reduce((sum, step) => sum + step.acknowledged, 0);
      for (let wait = 0; wait < 100 && browser.received < acknowledged; wait += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return {
        steps,
        acknowledged,
        browserReceived: browser.received,
        // Why device connections were closed, when they were (a step's `failed`).
        serverWarnings: serverWarnings(server.output(), 4),
      };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

/** The same load relayed by a bare Mosquitto to one counting subscriber (nothing stored). */
async function measureMosquitto(plan: Plan) {
  const mosquitto = await startMosquitto(1);
  try {
    const subscriber = await countingSubscriber(mosquitto.url, 't/demo/d/+/telemetry');
    try {
      const { steps } = await runSteps(
        mosquitto.url,
        anonymousLoad(plan.devices),
        plan,
        subscriber,
      );
      return { steps, received: subscriber.received };
    } finally {
      await subscriber.close();
    }
  } finally {
    await mosquitto.stop();
  }
}

/**
 * The plan (60 s a step); INGEST_DEVICES / INGEST_RATES (comma-separated) /
 * INGEST_SECONDS explore, INGEST_BACKENDS (pglite,postgres,mosquitto) picks what runs.
 */
function plan(smoke: boolean): Plan {
  const base: Plan = smoke
    ? {
        devices: 20,
        rates: [200, 0],
        seconds: 2,
        warmupSeconds: 0,
        bulkSeconds: 1,
        external: { seconds: 2, warmupSeconds: 0, minBacklog: 100, drainSeconds: 60 },
        clusterNodes: [],
      }
    : {
        devices: 1000,
        rates: [1000, 2000, 5000, 10000, 0],
        seconds: 60,
        warmupSeconds: 10,
        bulkSeconds: 10,
        external: { seconds: 30, warmupSeconds: 10, minBacklog: 2000, drainSeconds: 60 },
        clusterNodes: [1, 3],
      };
  const env = process.env;
  return {
    devices: Number(env.INGEST_DEVICES) || base.devices,
    rates: env.INGEST_RATES ? env.INGEST_RATES.split(',').map(Number) : base.rates,
    seconds: Number(env.INGEST_SECONDS) || base.seconds,
    warmupSeconds: base.warmupSeconds,
    bulkSeconds: base.bulkSeconds,
    external: {
      ...base.external,
      seconds: Number(env.INGEST_EXTERNAL_SECONDS) || base.external.seconds,
    },
    clusterNodes: env.INGEST_CLUSTER_NODES
      ? env.INGEST_CLUSTER_NODES.split(',').map(Number)
      : base.clusterNodes,
  };
}

/** The external-broker runs need PostgreSQL (polled while the nodes store) and Mosquitto. */
export async function externalIngestAvailable(): Promise<boolean> {
  return Boolean(process.env.TEST_DATABASE_URL) && (await mosquittoAvailable());
}

/** The external-broker runs alone (the smoke test's), with the plan of `npm run bench`. */
export function runExternalIngest(smoke: boolean) {
  return measureExternalRuns(plan(smoke));
}

/**
 * Ingestion through an external Mosquitto (MQTT_URL), on PostgreSQL: one node on the server's
 * core (the per-node figure beside the embedded broker's), then the cluster comparison, every
 * node on every core, all on one database and one Mosquitto.
 */
async function measureExternalRuns(p: Plan) {
  return withFreshTarget('postgres', async (target) => {
    const bench = await prepareDevices(target, p.devices);
    const plan = { devices: p.devices, ...p.external };
    const perNode = await withPinnedSelf(0, () =>
      measureExternal(target, bench, plan, { nodes: 1, pinned: true }),
    );
    console.log(JSON.stringify(perNode));
    const cluster = [];
    for (const nodes of p.clusterNodes) {
      const run = await withPinnedSelf(0, () =>
        measureExternal(target, bench, plan, { nodes, pinned: false }),
      );
      console.log(JSON.stringify(run));
      cluster.push(run);
    }
    const one = cluster.find((run) => run.nodes === 1);
    const most = cluster.at(-1);
    return {
      perNode,
      cluster,
      /** Stored by the most nodes over stored by one node, both on every core. */
      clusterRatio:
        one && most && most !== one
          ? round(most.storedPointsPerSecond / Math.max(1, one.storedPointsPerSecond))
          : undefined,
    };
  });
}

/**
 * Ingestion end to end: 1,000 devices with their own credentials publish QoS 1 three-value
 * telemetry at stepped rates, then as fast as acknowledgements allow; an acknowledgement means
 * stored (the server acknowledges after the commit), and the rows are counted at the end (loss
 * must be 0). Peers: bare Mosquitto relaying the same load, and a bare multi-row insert of the
 * same rows into the same database.
 */
export async function runIngest(smoke: boolean) {
  const p = plan(smoke);
  const wanted = chosenBy('INGEST_BACKENDS');
  const load = watchLoad();
  const results = [];
  for (const backend of backends().filter(wanted)) {
    const result = await withFreshTarget(backend, async (target) => {
      const bench = await prepareDevices(target, p.devices);
      const readings = acknowledgedReadings(bench.map((device) => device.deviceNo));
      const shuili = await withPinnedSelf(0, () => measureShuili(target, bench, p, readings));
      // Warm-up messages included: every acknowledged message counts for the loss check.
      const acknowledged = shuili.acknowledged;
      const storedPoints = await countStoredPoints(target);
      const check = await readings.check(target);
      const db = await openTarget(target, 1);
      const bulk = await bulkInsertPeer(db, {
        devices: p.devices,
        keys: [...BENCH_KEYS],
        batch: 1500,
        seconds: p.bulkSeconds,
      }).finally(() => db.close());
      const best = Math.max(...shuili.steps.map((step) => step.pointsPerSecond));
      return {
        backend,
        shuili: shuili.steps,
        acknowledgedMessages: acknowledged,
        storedPoints,
        /**
         * Acknowledged (the embedded broker acknowledges after the commit) and not in the table,
         * each acknowledged message looked up: the only loss, must be 0.
         */
        acknowledgedNotStored: check.acknowledgedNotStored,
        /**
         * Stored, but the device never got the acknowledgement (its connection was closed first):
         * not lost, and a real device's resend of it is absorbed as a duplicate.
         */
        storedNotAcknowledged:
          Math.round(storedPoints / BENCH_KEYS.length) - check.storedOfAcknowledged,
        /** Rows of one reading stored twice: the primary key forbids them. */
        duplicateRows: check.duplicateRows,
        browserReceived: shuili.browserReceived,
        serverWarnings: shuili.serverWarnings,
        bulkInsert: bulk,
        bestPointsPerSecond: best,
        ratioToBulkInsert: round(best / bulk.pointsPerSecond),
      };
    });
    console.log(JSON.stringify({ ...result, shuili: undefined }));
    results.push(result);
  }
  const mosquitto =
    wanted('mosquitto') && (await mosquittoAvailable())
      ? await withPinnedSelf(0, () => measureMosquitto(p))
      : undefined;
  // The smoke of the external broker is a test of its own (externalIngestAvailable).
  const external =
    !smoke && wanted('external') && (await externalIngestAvailable())
      ? await measureExternalRuns(p)
      : undefined;
  const embeddedPostgres = results.find((result) => result.backend === 'postgres');
  const mosquittoBest = mosquitto
    ? Math.max(...mosquitto.steps.map((step) => step.pointsPerSecond))
    : undefined;
  const summary = {
    plan: p,
    /** The machine's 1-minute load average during the run: other work shared it. */
    loadAverage: load(),
    results,
    mosquitto: mosquitto && {
      steps: mosquitto.steps,
      received: mosquitto.received,
      bestPointsPerSecond: mosquittoBest,
    },
    external: external && {
      ...external,
      /** One node through Mosquitto over one node with its embedded broker (PostgreSQL). */
      perNodeRatioToEmbedded: embeddedPostgres
        ? round(external.perNode.storedPointsPerSecond / embeddedPostgres.bestPointsPerSecond)
        : undefined,
      /** One node through Mosquitto over Mosquitto relaying the same load (nothing stored). */
      perNodeRatioToMosquittoRelaying: mosquittoBest
        ? round(external.perNode.storedPointsPerSecond / mosquittoBest)
        : undefined,
    },
  };
  const file = await writeResult('ingest', smoke, summary);
  return { file, summary };
}
