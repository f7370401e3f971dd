// Ingestion through an external broker: devices publish to a private Mosquitto, and one or
// several server nodes (MQTT_URL, distinct MQTT_NODE_ID, one share group, one database) consume
// it through shared subscriptions and store.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { brokerHealth } from '@shuili/test-support/broker-health';
import { BENCH_KEYS, telemetryPayloads, type BenchDevice } from '@shuili/test-support/ingest-data';
import { startIotServer, type RunningIotServer } from '@shuili/test-support/iot-server';
import { openTarget, type Target } from '@shuili/test-support/database-target';
import { canPin } from '@shuili/test-support/server-process';
import { acknowledgedReadings } from './acknowledged-readings';
import { startExternalBroker } from './external-broker';
import { connectDevices, deviceLoad, disconnectAll, publishStep } from './mqtt-load';
import { postgresBackends, watchCpu } from './process-cpu';

export interface ExternalPlan {
  devices: number;
  seconds: number;
  warmupSeconds: number;
  /** The broker's queue for the nodes is kept at about this many messages at least (below). */
  minBacklog: number;
  /** After the step, how long the nodes may take to store what the broker still queues. */
  drainSeconds: number;
}

/** Lets a node pinned to one core at start run on every core (the cluster shares them all). */
async function unpin(pid: number): Promise<void> {
  if (!(await canPin())) return;
  await promisify(execFile)('taskset', [
    '-a',
    '-p',
    '-c',
    `0-${os.availableParallelism() - 1}`,
    String(pid),
  ]);
}

/** Waits until every node's consumers have subscribed (health says broker "up"). */
async function consumersUp(servers: RunningIotServer[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const server of servers) {
    for (;;) {
      const state = (await brokerHealth(server.url))?.state ?? 'unknown';
      if (state === 'up') break;
      if (Date.now() > deadline)
        throw new Error(`consumers of ${server.url} did not subscribe: ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Stored readings as the nodes count them (the ingest counters are written in the storing
 * transaction), polled four times a second: cheap where counting the table is not.
 */
async function storedProgress(target: Target) {
  const db = await openTarget(target, 1);
  const keys = BENCH_KEYS.length;
  let base: number | undefined;
  let messages = 0;
  let lastChangeAt = Date.now();
  const history: Array<{ at: number; messages: number }> = [];
  const poll = async () => {
    const { rows } = await db.system((sql) =>
      sql.query<{ n: string }>(`SELECT coalesce(sum(accepted), 0)::text AS n FROM iot_ingest_stat`),
    );
    // Counted from the first poll on: the database may hold an earlier run's readings.
    const total = Math.floor(Number(rows[0]!.n) / keys);
    base ??= total;
    const now = total - base;
    if (now !== messages) lastChangeAt = Date.now();
    messages = now;
    history.push({ at: Date.now(), messages });
    while (history.length > 0 && history[0]!.at < Date.now() - 2_000) history.shift();
  };
  await poll();
  let polling = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(poll).catch(() => undefined);
  }, 250);
  return {
    get messages() {
      return messages;
    },
    get lastChangeAt() {
      return lastChangeAt;
    },
    /** Messages stored over about the last two seconds. */
    get recent() {
      return history.length > 1 ? history.at(-1)!.messages - history[0]!.messages : 0;
    },
    async close() {
      clearInterval(timer);
      await polling;
      await db.close();
    },
  };
}

/**
 * One run: `nodes` server processes on one database and one external Mosquitto, the devices
 * publishing to it as fast as it acknowledges (4 in flight each), held back while the broker
 * queues more for the nodes than they store in two seconds (at least `minBacklog`): the nodes are
 * kept saturated and the queue stays small enough to drain. Then the nodes store what is queued,
 * and the acknowledged readings are looked up in the database.
 *
 * Mosquitto acknowledges a device when it has taken the message, so "acknowledged" is "taken by
 * the broker"; stored per second comes from the database. With `pinned`, one node runs on the
 * server's core like the embedded-broker step; otherwise every node may use every core.
 */
export async function measureExternal(
  target: Target,
  bench: BenchDevice[],
  plan: ExternalPlan,
  options: { nodes: number; pinned: boolean },
) {
  const acknowledged = acknowledgedReadings(bench.map((device) => device.deviceNo));
  const run = await runNodes(target, bench, plan, options, acknowledged);
  // With the nodes and the broker stopped: what the broker took and is not in the table was
  // still queued for the nodes when the drain ended (queuedAtEnd), or lost.
  const check = await acknowledged.check(target);
  return {
    ...run,
    acknowledgedNotStored: check.acknowledgedNotStored,
    duplicateRows: check.duplicateRows,
  };
}

async function runNodes(
  target: Target,
  bench: BenchDevice[],
  plan: ExternalPlan,
  options: { nodes: number; pinned: boolean },
  acknowledged: ReturnType<typeof acknowledgedReadings>,
) {
  const tag = crypto.randomBytes(3).toString('hex');
  const broker = await startExternalBroker();
  const servers: RunningIotServer[] = [];
  const devices = deviceLoad(bench.slice(0, plan.devices));
  const payloadOf = telemetryPayloads();
  let progress: Awaited<ReturnType<typeof storedProgress>> | undefined;
  try {
    for (let node = 0; node < options.nodes; node += 1) {
      servers.push(
        await startIotServer(target, {
          env: {
            MQTT_URL: broker.url,
            MQTT_NODE_ID: `bench-${tag}-${node + 1}`,
            MQTT_SHARE_GROUP: `bench${tag}`,
          },
        }),
      );
    }
    if (!options.pinned) for (const server of servers) await unpin(server.pid);
    await consumersUp(servers);
    progress = await storedProgress(target);
    const stored = progress;
    const clients = await connectDevices(broker.url, devices);
    const pause = () =>
      acknowledged.count - stored.messages > Math.max(plan.minBacklog, stored.recent);
    const storedAll = async (drainSeconds: number) => {
      const until = Date.now() + drainSeconds * 1000;
      while (stored.messages < acknowledged.count && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
    };
    try {
      if (plan.warmupSeconds > 0) {
        await publishStep(clients, devices, payloadOf, {
          perSecond: 0,
          seconds: plan.warmupSeconds,
          pause,
          onAcknowledged: acknowledged.record,
        });
        await storedAll(plan.drainSeconds);
      }
      const databaseName = target.kind === 'postgres' ? new URL(target.url).pathname.slice(1) : '';
      const cpu = watchCpu({
        servers: async () => servers.map((server) => server.pid),
        mosquitto: async () => [broker.pid],
        postgres: () => postgresBackends(databaseName),
      });
      await cpu.ready;
      const storedBefore = stored.messages;
      const startedAt = Date.now();
      const step = await publishStep(clients, devices, payloadOf, {
        perSecond: 0,
        seconds: plan.seconds,
        pause,
        onAcknowledged: acknowledged.record,
      });
      const usage = await cpu.stop();
      await storedAll(plan.drainSeconds);
      const storedMessages = stored.messages - storedBefore;
      const elapsed = Math.max(1, stored.lastChangeAt - startedAt) / 1000;
      const messagesPerSecond = Math.round(storedMessages / elapsed);
      return {
        nodes: options.nodes,
        pinned: options.pinned,
        seconds: plan.seconds,
        /** Taken by Mosquitto (its PUBACK to the device) during the step. */
        brokerAcknowledged: step.acknowledged,
        /** Published and without Mosquitto's PUBACK at the end of the step (not lost). */
        unacknowledged: step.unacknowledged,
        storedMessages,
        /** Stored per second, from the step's start to the last stored message. */
        storedMessagesPerSecond: messagesPerSecond,
        storedPointsPerSecond: messagesPerSecond * BENCH_KEYS.length,
        perNodePointsPerSecond: Math.round((messagesPerSecond * BENCH_KEYS.length) / options.nodes),
        /** Taken by the broker (warm-up included) and not stored when the drain ended. */
        queuedAtEnd: Math.max(0, acknowledged.count - stored.messages),
        deviceAckP99Ms: step.ackP99Ms,
        cpu: usage,
      };
    } finally {
      await disconnectAll(clients);
    }
  } finally {
    await progress?.close();
    for (const server of servers) await server.stop().catch(() => undefined);
    await broker.stop();
  }
}
