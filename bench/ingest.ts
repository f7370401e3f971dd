import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deviceTopic } from '@shuili/contract';
import { createTestPostgresDatabase } from '@shuili/server/testing';
import { bulkInsertPeer } from './lib/bulk-insert-peer';
import { BENCH_KEYS, prepareDevices, type BenchDevice } from './lib/ingest-data';
import { countingSubscriber, mosquittoAvailable, startMosquitto } from './lib/mosquitto-peer';
import {
  connectDevices,
  disconnectAll,
  publishStep,
  residentMiB,
  type LoadDevice,
  type StepResult,
} from './lib/mqtt-load';
import { writeResult } from './lib/results';
import { freePort, startServer, withPinnedSelf } from './lib/server-process';
import { round } from './lib/stats';
import { openTarget, type Target } from './lib/user-list-data';

const BASIC = `Basic ${Buffer.from('browser:browser').toString('base64')}`;

interface Plan {
  devices: number;
  /** Messages per second in total; 0 = as fast as acknowledgements come back. */
  rates: number[];
  seconds: number;
  /** Seconds at a low rate before the steps (JIT, caches, connection pools), not recorded. */
  warmupSeconds: number;
  bulkSeconds: number;
}

/**
 * A reading as the devices send it. `ts` is the reading's instant and must differ between two
 * readings of one device (the same instant is the same reading, stored once), so it is the
 * publish time made strictly increasing per device; `sentAt` (ignored by ingestion) carries the
 * publish time for the delay measurements.
 */
const lastTs = new Map<number, number>();
function payloadOf(sentAt: number, device: number): string {
  const ts = Math.max(sentAt, (lastTs.get(device) ?? 0) + 1);
  lastTs.set(device, ts);
  return JSON.stringify({
    ts,
    sentAt,
    values: { waterLevel: 1 + Math.random(), flow: 120 + Math.random() * 10, pressure: 0.3 },
  });
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(
    `${url}/api/uaa/oauth/token?grant_type=password&type=account&scope=ui&client_id=browser&tenantCode=demo&username=admin&password=admin123`,
    {
      method: 'POST',
      headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    },
  );
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${response.status}`);
  return body.access_token;
}

interface StepRow extends StepResult {
  pointsPerSecond: number;
  /** Publish to receipt by a signed-in browser's MQTT-over-WebSocket subscription. */
  browserP50Ms?: number;
  browserP99Ms?: number;
  serverRssMiB?: number;
}

/** Runs every step against one broker URL, with an optional watcher of the deliveries. */
async function runSteps(
  brokerUrl: string,
  devices: LoadDevice[],
  plan: Plan,
  watch: { takeDelays(): { p50Ms: number; p99Ms: number } } | undefined,
  serverPid?: number,
): Promise<{ steps: StepRow[]; warmupAcknowledged: number }> {
  const clients = await connectDevices(brokerUrl, devices);
  try {
    const rows: StepRow[] = [];
    const warmup =
      plan.warmupSeconds > 0
        ? await publishStep(clients, devices, payloadOf, {
            perSecond: 500,
            seconds: plan.warmupSeconds,
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
      const step = await publishStep(clients, devices, payloadOf, {
        perSecond: rate,
        seconds: plan.seconds,
      });
      if (sampler) clearInterval(sampler);
      const delays = watch?.takeDelays();
      rows.push({
        ...step,
        pointsPerSecond: step.ackedPerSecond * BENCH_KEYS.length,
        ...(delays ? { browserP50Ms: round(delays.p50Ms), browserP99Ms: round(delays.p99Ms) } : {}),
        ...(serverPid ? { serverRssMiB: peakRss } : {}),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
    return { steps: rows, warmupAcknowledged: warmup?.acknowledged ?? 0 };
  } finally {
    await disconnectAll(clients);
  }
}

async function countStored(target: Target): Promise<number> {
  const db = await openTarget(target, 1);
  try {
    const { rows } = await db.system((sql) =>
      sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM iot_telemetry`),
    );
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

/** Shuili end to end on one database: devices -> embedded broker -> stored, plus a browser. */
async function measureShuili(target: Target, bench: BenchDevice[], plan: Plan) {
  const mqttPort = await freePort();
  const server = await startServer(
    {
      MQTT_PORT: String(mqttPort),
      SIM: '0',
      ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}),
    },
    1,
    target.kind === 'pglite' ? { dataDir: target.dataDir } : {},
  );
  try {
    const token = await signIn(server.url);
    const browser = await countingSubscriber(
      `${server.url.replace('http', 'ws')}/mqtt`,
      't/demo/d/+/telemetry',
      {
        clientId: `web:demo:bench${Date.now()}`,
        username: 'admin',
        password: token,
        keepalive: 60,
      },
    );
    try {
      const devices = bench.map((device) => ({
        topic: deviceTopic('demo', device.deviceNo, 'telemetry'),
        clientId: device.identity,
        username: device.identity,
        password: device.secret,
      }));
      const { steps, warmupAcknowledged } = await runSteps(
        `mqtt://127.0.0.1:${mqttPort}`,
        devices,
        plan,
        browser,
        server.pid,
      );
      // The browser's copies may still be on their way when the last acknowledgement arrives.
      const acknowledged =
        warmupAcknowledged + steps.reduce((sum, step) => sum + step.acknowledged, 0);
      for (let wait = 0; wait < 100 && browser.received < acknowledged; wait += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return { steps, acknowledged, browserReceived: browser.received };
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
      const devices = Array.from({ length: plan.devices }, (_, i) => ({
        topic: deviceTopic('demo', `B${String(i + 1).padStart(5, '0')}`, 'telemetry'),
        clientId: `bench-${i}`,
      }));
      const { steps } = await runSteps(mosquitto.url, devices, plan, subscriber);
      return { steps, received: subscriber.received };
    } finally {
      await subscriber.close();
    }
  } finally {
    await mosquitto.stop();
  }
}

/** The plan; INGEST_DEVICES / INGEST_RATES (comma-separated) / INGEST_SECONDS explore. */
function plan(smoke: boolean): Plan {
  const base: Plan = smoke
    ? { devices: 20, rates: [200, 0], seconds: 2, warmupSeconds: 0, bulkSeconds: 1 }
    : {
        devices: 1000,
        rates: [1000, 2000, 5000, 0],
        seconds: 20,
        warmupSeconds: 10,
        bulkSeconds: 10,
      };
  const env = process.env;
  return {
    devices: Number(env.INGEST_DEVICES) || base.devices,
    rates: env.INGEST_RATES ? env.INGEST_RATES.split(',').map(Number) : base.rates,
    seconds: Number(env.INGEST_SECONDS) || base.seconds,
    warmupSeconds: base.warmupSeconds,
    bulkSeconds: base.bulkSeconds,
  };
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
  const backends: ('pglite' | 'postgres')[] = ['pglite'];
  if (process.env.TEST_DATABASE_URL) backends.push('postgres');
  const results = [];
  for (const backend of backends) {
    const created = backend === 'postgres' ? await createTestPostgresDatabase() : undefined;
    const dataDir =
      backend === 'pglite' ? await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-ingest-')) : undefined;
    const target: Target = created
      ? { kind: 'postgres', url: created.url }
      : { kind: 'pglite', dataDir: dataDir! };
    try {
      const bench = await prepareDevices(target, p.devices);
      const shuili = await withPinnedSelf(0, () => measureShuili(target, bench, p));
      // Warm-up messages included: every acknowledged message counts for the loss check.
      const acknowledged = shuili.acknowledged;
      const storedPoints = await countStored(target);
      const db = await openTarget(target, 1);
      const bulk = await bulkInsertPeer(db, {
        devices: p.devices,
        keys: [...BENCH_KEYS],
        batch: 1500,
        seconds: p.bulkSeconds,
      }).finally(() => db.close());
      const best = Math.max(...shuili.steps.map((step) => step.pointsPerSecond));
      results.push({
        backend,
        shuili: shuili.steps,
        acknowledgedMessages: acknowledged,
        storedPoints,
        /** Every acknowledged message's three values are in the table: 0 means nothing lost. */
        lostPoints: acknowledged * BENCH_KEYS.length - storedPoints,
        browserReceived: shuili.browserReceived,
        bulkInsert: bulk,
        bestPointsPerSecond: best,
        ratioToBulkInsert: round(best / bulk.pointsPerSecond),
      });
    } finally {
      await created?.drop();
      if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    }
  }
  const mosquitto = (await mosquittoAvailable())
    ? await withPinnedSelf(0, () => measureMosquitto(p))
    : undefined;
  const summary = {
    plan: p,
    results,
    mosquitto: mosquitto && {
      steps: mosquitto.steps,
      received: mosquitto.received,
      bestPointsPerSecond: Math.max(...mosquitto.steps.map((step) => step.pointsPerSecond)),
    },
  };
  const file = await writeResult('ingest', smoke, summary);
  return { file, summary };
}
