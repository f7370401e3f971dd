import { liveTopics } from '@shuili/contract';
import type { IClientOptions } from 'mqtt';
import { withFreshTarget } from '@shuili/test-support/database-target';
import type { Backend } from '@shuili/test-support/test-server';
import { backends, chosenBy } from './lib/bench-targets';
import { prepareDevices, telemetryPayloads } from '@shuili/test-support/ingest-data';
import {
  BENCH_TENANT,
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
} from './lib/mqtt-load';
import { watchLoad } from './lib/machine-load';
import { writeResult } from './lib/results';
import { runQueueWaitSeconds } from './lib/run-queue';
import { withPinnedSelf } from '@shuili/test-support/server-process';
import { latencySummary, round } from './lib/stats';

interface Plan {
  devices: number;
  browsers: number;
  /** Messages per second from all devices together (1 msg/s per device in the full run). */
  perSecond: number;
  seconds: number;
  /** At the same rate before measuring (JIT, caches, connection pools), not recorded. */
  warmupSeconds: number;
}

/**
 * What every browser subscribes: the tenant's all-devices telemetry filter (a wall of live values:
 * every browser receives all 1,000 messages a second, the heaviest a console can ask) plus the
 * presence and alarm topics the device screens subscribe (apps/web/src/features/iot/device).
 */
const FILTERS = [
  `t/${BENCH_TENANT}/d/+/telemetry`,
  liveTopics.presence(BENCH_TENANT),
  liveTopics.alarms(BENCH_TENANT),
];

/** One broker under test: where devices and browsers connect, and how a browser signs in. */
interface Broker {
  deviceUrl: string;
  browserUrl: string;
  devices: LoadDevice[];
  browserOptions(): Promise<IClientOptions>;
  /** The broker's process, for its CPU and memory. */
  pid: number;
  /** What the broker printed (warnings), when it is ours. */
  output?: () => string;
}

/**
 * Devices publish at the plan's rate while every browser counts what reaches it and when: p50 /
 * p95 / p99 / max from device publish to browser receipt, per browser and over all of them, and
 * the acknowledged messages a browser never received (missed).
 */
async function measure(broker: Broker, plan: Plan) {
  const browsers = [];
  let closed = 0;
  for (let i = 0; i < plan.browsers; i += 1) {
    const browser = await countingSubscriber(
      broker.browserUrl,
      FILTERS,
      await broker.browserOptions(),
      0, // the console subscribes at QoS 0: a live view wants the newest, not a backlog
    );
    browser.onClose(() => (closed += 1));
    browsers.push(browser);
  }
  const clients = await connectDevices(broker.deviceUrl, broker.devices);
  let devicesClosed = 0;
  for (const client of clients) client.on('close', () => (devicesClosed += 1));
  try {
    const payloadOf = telemetryPayloads();
    const rate = { perSecond: plan.perSecond };
    await publishStep(clients, broker.devices, payloadOf, { ...rate, seconds: plan.warmupSeconds });
    const start = Date.now();
    for (const browser of browsers) browser.measureFrom(start);
    const stopWatchingLoad = watchLoad();
    const cpuBefore = await cpuSeconds(broker.pid);
    const waitBefore = await runQueueWaitSeconds(broker.pid);
    const generatorWaitBefore = await runQueueWaitSeconds(process.pid);
    let peakRss = 0;
    const sampler = setInterval(
      () => void residentMiB(broker.pid).then((mib) => (peakRss = Math.max(peakRss, mib))),
      1000,
    );
    const step = await publishStep(clients, broker.devices, payloadOf, {
      ...rate,
      seconds: plan.seconds,
    });
    clearInterval(sampler);
    const loadAverage1m = stopWatchingLoad();
    const cpuUsed = (await cpuSeconds(broker.pid)) - cpuBefore;
    const waited = (await runQueueWaitSeconds(broker.pid)) - waitBefore;
    const generatorWaited = (await runQueueWaitSeconds(process.pid)) - generatorWaitBefore;
    // The last copies may still be on their way when the last acknowledgement arrives.
    const settleUntil = Date.now() + 5000;
    while (browsers.some((b) => b.measured < step.acknowledged) && Date.now() < settleUntil)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const all: number[] = [];
    const perBrowser = browsers.map((browser) => {
      const { all: delays } = browser.takeDelays();
      for (const delay of delays) all.push(delay);
      return {
        ...latencySummary(delays),
        received: browser.measured,
        missed: Math.max(0, step.acknowledged - browser.measured),
      };
    });
    return {
      sent: step.sent,
      acknowledged: step.acknowledged,
      unacknowledged: step.unacknowledged,
      ackP50Ms: step.ackP50Ms,
      ackP99Ms: step.ackP99Ms,
      overall: latencySummary(all),
      missed: perBrowser.reduce((sum, b) => sum + b.missed, 0),
      browserConnectionsLost: closed,
      deviceConnectionsLost: devicesClosed,
      perBrowser,
      brokerCpuPercent: round((cpuUsed / plan.seconds) * 100, 1),
      /** Of the wall time, how long the broker's main thread was ready but waited for its core. */
      brokerRunQueueWaitPercent: round((waited / plan.seconds) * 100, 1),
      /** The same for the load generator (devices and browsers on core 0). */
      generatorRunQueueWaitPercent: round((generatorWaited / plan.seconds) * 100, 1),
      brokerPeakRssMiB: peakRss,
      /** Other work on the machine (2 cores) during the measured minute. */
      loadAverage1m,
      // The broker's last warnings (a refused store, a skipped slow browser), if any.
      brokerWarnings: serverWarnings(broker.output?.() ?? ''),
    };
  } finally {
    await disconnectAll(clients);
    await Promise.all(browsers.map((browser) => browser.close()));
  }
}

async function measureShuili(backend: Backend, plan: Plan) {
  return withFreshTarget(backend, async (target) => {
    const bench = await prepareDevices(target, plan.devices);
    const server = await startIotServer(target);
    try {
      const measured = await withPinnedSelf(0, () =>
        measure(
          {
            deviceUrl: server.mqttUrl,
            browserUrl: server.wsUrl,
            devices: deviceLoad(bench),
            // Every browser is its own sign-in (its own session and token), as 20 people would be.
            browserOptions: async () => browserOptions(await signIn(server.url)),
            pid: server.pid,
            output: server.output,
          },
          plan,
        ),
      );
      return { backend, ...measured };
    } finally {
      await server.stop();
    }
  });
}

/** The peer: the same devices and browsers on a bare Mosquitto (nothing stored, no accounts). */
async function measureMosquitto(plan: Plan) {
  const mosquitto = await startMosquitto(1);
  try {
    return await withPinnedSelf(0, () =>
      measure(
        {
          deviceUrl: mosquitto.url,
          browserUrl: mosquitto.wsUrl,
          devices: anonymousLoad(plan.devices),
          browserOptions: () => Promise.resolve({}),
          pid: mosquitto.pid,
        },
        plan,
      ),
    );
  } finally {
    await mosquitto.stop();
  }
}

/** The plan; REALTIME_SECONDS and REALTIME_BROWSERS explore. */
function plan(smoke: boolean): Plan {
  const base = smoke
    ? { devices: 20, browsers: 3, perSecond: 100, seconds: 2, warmupSeconds: 1 }
    : { devices: 1000, browsers: 20, perSecond: 1000, seconds: 60, warmupSeconds: 10 };
  const env = process.env;
  return {
    ...base,
    seconds: Number(env.REALTIME_SECONDS) || base.seconds,
    browsers: Number(env.REALTIME_BROWSERS) || base.browsers,
  };
}

/** REALTIME_BACKENDS (pglite,postgres,mosquitto) picks what runs; PostgreSQL needs its URL. */
const wanted = chosenBy('REALTIME_BACKENDS');

/**
 * Live data end to end: 1,000 devices with their own credentials publish once a second (QoS 1)
 * while 20 signed-in browsers (MQTT over WebSocket at /mqtt, access token) watch the tenant; the
 * goal is p99 < 150 ms from device publish to browser receipt. Peer: the same through Mosquitto.
 */
export async function runRealtime(smoke: boolean) {
  const p = plan(smoke);
  const results = [];
  for (const backend of backends().filter(wanted)) {
    results.push(await measureShuili(backend, p));
    console.log(JSON.stringify({ ...results.at(-1), perBrowser: undefined }));
  }
  const mosquitto =
    wanted('mosquitto') && (await mosquittoAvailable()) ? await measureMosquitto(p) : undefined;
  const summary = {
    plan: p,
    filters: FILTERS,
    results: results.map((result) => ({
      ...result,
      ...(mosquitto
        ? { p99RatioToMosquitto: round(result.overall.p99Ms / mosquitto.overall.p99Ms) }
        : {}),
    })),
    mosquitto,
  };
  const file = await writeResult('realtime', smoke, summary);
  return { file, summary };
}
