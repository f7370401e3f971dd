import type { IClientOptions } from 'mqtt';
import { withFreshTarget } from '@shuili/test-support/database-target';
import type { Backend } from '@shuili/test-support/test-server';
import { backends, chosenBy } from './lib/bench-targets';
import { BENCH_KEYS, prepareDevices, telemetryPayloads } from '@shuili/test-support/ingest-data';
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
  deviceLoad,
  disconnectAll,
  type LoadDevice,
  publishStep,
} from './lib/mqtt-load';
import { pollHealth, probeDevice, recoveredAfterMs, sampleMemory } from './lib/overload-monitors';
import { watchLoad } from './lib/machine-load';
import { writeResult } from './lib/results';
import { withPinnedSelf } from '@shuili/test-support/server-process';
import { round } from './lib/stats';
import { countStoredPoints } from './lib/telemetry-count';

interface Plan {
  devices: number;
  /** Seconds at a normal rate first: the probe's and the health check's normal latency. */
  normalSeconds: number;
  normalPerSecond: number;
  /** Seconds as fast as acknowledgements come back: the sustainable rate. */
  sustainableSeconds: number;
  /** The flood: this many times the sustainable rate, for overloadSeconds. */
  factor: number;
  overloadSeconds: number;
  /** Unacknowledged messages a device keeps at most; a device with a full window skips. */
  maxInFlight: number;
  /** Seconds watched after the flood's last acknowledgement. */
  recoverySeconds: number;
  /** The peer's flood (Mosquitto does not store: its limit is the load generator's). */
  peerSeconds: number;
}

/** The probe's latency counts as normal again within this of the normal phase's p99. */
const normalLimit = (p99: number) => Math.max(2 * p99, p99 + 50);

/** One broker under the flood: where its devices connect, its process, its health URL. */
interface Broker {
  deviceUrl: string;
  browserUrl: string;
  devices: LoadDevice[];
  probe: LoadDevice;
  browserOptions(): Promise<IClientOptions>;
  pid: number;
  healthUrl?: string;
  /** What the broker printed (warnings), when it is ours. */
  output?: () => string;
}

/**
 * Normal rate, then the sustainable rate (as fast as acknowledgements come back), then `factor`
 * times it for the flood, then quiet; watching all along the broker's memory every second, its
 * health endpoint every second, one normal device publishing 5 times a second, and one signed-in
 * browser's live copies of everything.
 */
async function flood(broker: Broker, plan: Plan, overloadSeconds: number, rate?: number) {
  const payloadOf = telemetryPayloads();
  const probePayload = telemetryPayloads();
  const memory = sampleMemory(broker.pid);
  const health = broker.healthUrl ? pollHealth(broker.healthUrl) : undefined;
  const browser = await countingSubscriber(
    broker.browserUrl,
    `t/${BENCH_TENANT}/d/+/telemetry`,
    await broker.browserOptions(),
    0,
  );
  let browserClosed = 0;
  browser.onClose(() => (browserClosed += 1));
  const clients = await connectDevices(broker.deviceUrl, broker.devices);
  let devicesClosed = 0;
  for (const client of clients) client.on('close', () => (devicesClosed += 1));
  const probe = await probeDevice(broker.deviceUrl, broker.probe, (at) => probePayload(at, 0));
  try {
    const stopWatchingLoad = watchLoad();
    const t0 = Date.now();
    const normal = await publishStep(clients, broker.devices, payloadOf, {
      perSecond: plan.normalPerSecond,
      seconds: plan.normalSeconds,
    });
    const t1 = Date.now();
    const sustainable = await publishStep(clients, broker.devices, payloadOf, {
      perSecond: 0,
      seconds: plan.sustainableSeconds,
    });
    const offeredPerSecond = rate ?? plan.factor * sustainable.ackedPerSecond;
    browser.measureFrom(Date.now());
    const t2 = Date.now();
    const overload = await publishStep(clients, broker.devices, payloadOf, {
      perSecond: offeredPerSecond,
      seconds: overloadSeconds,
      maxInFlight: plan.maxInFlight,
      drainSeconds: 300,
    });
    const stoppedAt = t2 + overloadSeconds * 1000;
    const t3 = Date.now(); // the flood's last acknowledgement (or the drain's time limit)
    await new Promise((resolve) => setTimeout(resolve, plan.recoverySeconds * 1000));
    const t4 = Date.now();
    const browserReceived = browser.measured;
    const probeNormal = probe.between(t0, t1);
    const probeClosed = probe.closed;
    const loadAverage1m = stopWatchingLoad();
    await probe.stop();
    const memoryDuring = memory.between(t2, t3);
    const minute = 60_000;
    return {
      normal: { ...normal, probeAck: probeNormal, health: health?.between(t0, t1) },
      sustainable,
      overload: {
        ...overload,
        offeredPerSecond,
        offered: overload.sent + (overload.heldBack ?? 0),
        /** What the devices really put on the wire, per second. */
        sentPerSecond: Math.round(overload.sent / overloadSeconds),
        probeAck: probe.between(t2, stoppedAt),
        health: health?.between(t2, t3),
        // Shedding: connections the broker closed during or after the flood.
        deviceConnectionsClosed: devicesClosed,
        probeConnectionsClosed: probeClosed,
        browserConnectionsClosed: browserClosed,
        // QoS 0 live copies of acknowledged messages that never reached the browser.
        browserCopiesMissed: Math.max(0, overload.acknowledged - browserReceived),
      },
      memory: {
        beforeMiB: Math.max(...memory.between(t0, t2)),
        duringMaxMiB: Math.max(...memoryDuring),
        firstMinuteMaxMiB: Math.max(...memory.between(t2, t2 + minute)),
        lastMinuteMaxMiB: Math.max(...memory.between(stoppedAt - minute, stoppedAt)),
        afterMiB: memory.between(t3, t4).at(-1),
        every10s: memoryDuring.filter((_, i) => i % 10 === 0),
      },
      recovery: {
        /** From the end of the flood until its last message was acknowledged. */
        drainedAfterMs: overload.drainedAfterMs,
        normalProbeLimitMs: normalLimit(probeNormal.p99Ms),
        /** From the end of the flood until a normal device's messages were acked normally again. */
        probeNormalAfterMs: recoveredAfterMs(
          probe.messages,
          stoppedAt,
          normalLimit(probeNormal.p99Ms),
        ),
        probeAck: probe.between(t3, t4),
        health: health?.between(t3, t4),
      },
      /** Other work on the machine (2 cores) meanwhile. */
      loadAverage1m,
      // The broker's last warnings (refused stores, closed connections, skipped live copies).
      brokerWarnings: serverWarnings(broker.output?.() ?? ''),
      acknowledgedMessages:
        normal.acknowledged + sustainable.acknowledged + overload.acknowledged + probe.acknowledged,
    };
  } finally {
    memory.stop();
    await health?.stop();
    await disconnectAll(clients);
    await browser.close();
  }
}

async function measureShuili(backend: Backend, plan: Plan) {
  return withFreshTarget(backend, async (target) => {
    const bench = await prepareDevices(target, plan.devices + 1);
    const server = await startIotServer(target);
    let measured;
    try {
      const load = deviceLoad(bench);
      measured = await withPinnedSelf(0, () =>
        flood(
          {
            deviceUrl: server.mqttUrl,
            browserUrl: server.wsUrl,
            devices: load.slice(0, plan.devices),
            probe: load[plan.devices]!,
            browserOptions: async () => browserOptions(await signIn(server.url)),
            pid: server.pid,
            healthUrl: `${server.url}/api/health`,
            output: server.output,
          },
          plan,
          plan.overloadSeconds,
        ),
      );
    } finally {
      await server.stop();
    }
    // Every acknowledged message's three values must be stored (PGlite: after the server let go).
    const storedPoints = await countStoredPoints(target);
    const acknowledgedPoints = measured.acknowledgedMessages * BENCH_KEYS.length;
    return {
      backend,
      ...measured,
      storedPoints,
      lostAcknowledgedPoints: Math.max(0, acknowledgedPoints - storedPoints),
      /** Stored, but the acknowledgement never arrived (a closed connection): resent, not lost. */
      storedUnacknowledgedPoints: Math.max(0, storedPoints - acknowledgedPoints),
    };
  });
}

/** The peer: the same flood (same offered rate) on a bare Mosquitto that stores nothing. */
async function measureMosquitto(plan: Plan, offeredPerSecond: number) {
  const mosquitto = await startMosquitto(1);
  try {
    const load = anonymousLoad(plan.devices + 1);
    return await withPinnedSelf(0, () =>
      flood(
        {
          deviceUrl: mosquitto.url,
          browserUrl: mosquitto.wsUrl,
          devices: load.slice(0, plan.devices),
          probe: load[plan.devices]!,
          browserOptions: () => Promise.resolve({}),
          pid: mosquitto.pid,
        },
        plan,
        plan.peerSeconds,
        offeredPerSecond,
      ),
    );
  } finally {
    await mosquitto.stop();
  }
}

/** The plan; OVERLOAD_SECONDS, OVERLOAD_RECOVERY_SECONDS and OVERLOAD_MAX_IN_FLIGHT explore. */
function plan(smoke: boolean): Plan {
  const base: Plan = smoke
    ? {
        devices: 20,
        normalSeconds: 1,
        normalPerSecond: 50,
        sustainableSeconds: 1,
        factor: 10,
        overloadSeconds: 3,
        maxInFlight: 20,
        recoverySeconds: 1,
        peerSeconds: 2,
      }
    : {
        devices: 1000,
        normalSeconds: 15,
        normalPerSecond: 1000,
        sustainableSeconds: 10,
        factor: 10,
        overloadSeconds: 300,
        maxInFlight: 20,
        recoverySeconds: 30,
        peerSeconds: 60,
      };
  const env = process.env;
  return {
    ...base,
    overloadSeconds: Number(env.OVERLOAD_SECONDS) || base.overloadSeconds,
    maxInFlight: Number(env.OVERLOAD_MAX_IN_FLIGHT) || base.maxInFlight,
    recoverySeconds: Number(env.OVERLOAD_RECOVERY_SECONDS) || base.recoverySeconds,
    peerSeconds: Math.min(base.peerSeconds, Number(env.OVERLOAD_SECONDS) || base.peerSeconds),
  };
}

/** OVERLOAD_BACKENDS (pglite,postgres,mosquitto) picks what runs; PostgreSQL needs its URL. */
const wanted = chosenBy('OVERLOAD_BACKENDS');

/**
 * Overload: find the sustainable rate, offer ten times it for 5 minutes, and watch the server's
 * memory, what it does with the excess (back-pressure: slower acknowledgements; shedding: closed
 * connections, dropped live copies), its health endpoint, and how fast it is normal again after.
 * Zero loss of acknowledged QoS 1 messages is checked by counting the rows.
 */
export async function runOverload(smoke: boolean) {
  const p = plan(smoke);
  const results = [];
  for (const backend of backends().filter(wanted)) {
    results.push(await measureShuili(backend, p));
    console.log(JSON.stringify({ ...results.at(-1), memory: undefined }));
  }
  // The peer gets the largest flood a database run got (50,000 msg/s when it runs alone).
  const offered = results.length
    ? Math.max(...results.map((r) => r.overload.offeredPerSecond))
    : 50_000;
  const mosquitto =
    wanted('mosquitto') && (await mosquittoAvailable())
      ? await measureMosquitto(p, offered)
      : undefined;
  const summary = {
    plan: p,
    results: results.map((result) => ({
      ...result,
      ...(mosquitto
        ? {
            peakRssRatioToMosquitto: round(
              result.memory.duringMaxMiB / mosquitto.memory.duringMaxMiB,
            ),
          }
        : {}),
    })),
    mosquitto,
  };
  const file = await writeResult('overload', smoke, summary);
  return { file, summary };
}
