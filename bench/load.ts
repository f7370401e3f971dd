import fs from 'node:fs/promises';
import path from 'node:path';
import { withFreshTarget } from '@shuili/test-support/database-target';
import type { Backend } from '@shuili/test-support/test-server';
import { backends, chosenBy } from './lib/bench-targets';
import { telemetryPayloads } from '@shuili/test-support/ingest-data';
import { serverWarnings, startIotServer } from '@shuili/test-support/iot-server';
import { prepareLoad, type LoadDataPlan } from './lib/load-data';
import { connectAnsweringDevices, loadDevices } from './lib/load-devices';
import type { LiveCopies } from './lib/load-browser';
import { loadRecorder } from './lib/load-recorder';
import { BELL, SCREENS, urlOf } from './lib/load-screens';
import { runUser, signInUser, type SignedInUser } from './lib/load-user';
import { watchLoad } from './lib/machine-load';
import { cpuSeconds, disconnectAll, publishStep, residentMiB } from './lib/mqtt-load';
import { writeResult } from './lib/results';
import { runQueueWaitSeconds } from './lib/run-queue';
import { REPO_ROOT, withPinnedSelf } from '@shuili/test-support/server-process';
import { latencySummary, round } from './lib/stats';
import { countStoredPoints } from './lib/telemetry-count';

interface Plan extends LoadDataPlan {
  /** Telemetry messages per second from all devices (QoS 1, three values each). */
  perSecond: number;
  /** Unacknowledged messages a device keeps at most (mqtt-load's in-flight window). */
  maxInFlight: number;
  seconds: number;
  /** Users and devices at full load before measuring (JIT, pools, caches), not recorded. */
  warmupSeconds: number;
  /** Seconds between two screens of one user (uniform). */
  thinkSeconds: [number, number];
  /** Of the users, this share keep a live connection (MQTT over WebSocket). */
  liveShare: number;
  /** Sign-ins at once (argon2id is slow by design; a password rate limit applies per address). */
  signInConcurrency: number;
  /** Screens in turn rather than by weight (smoke: every screen runs). */
  tour: boolean;
}

/** Three values per message (ingest-data's telemetryPayloads): readings per acknowledged message. */
const VALUES_PER_MESSAGE = 3;

/** Signs every user in, a few at a time, counting it apart from the measured window. */
async function signInAll(
  prepared: Parameters<typeof signInUser>[0][],
  concurrency: number,
): Promise<{ users: SignedInUser[]; seconds: number; latencies: number[] }> {
  const users: SignedInUser[] = [];
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < prepared.length) {
        const options = prepared[next++]!;
        const t0 = performance.now();
        users.push(await signInUser(options));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { users, seconds: (performance.now() - started) / 1000, latencies };
}

async function measure(backend: Backend, plan: Plan) {
  return withFreshTarget(backend, async (target) => {
    const preparedAt = performance.now();
    const data = await prepareLoad(target, plan);
    const prepareSeconds = round((performance.now() - preparedAt) / 1000, 1);
    const server = await startIotServer(target);
    const recorder = loadRecorder();
    const copies: LiveCopies = { delays: [], measuring: false, received: 0, connectionsLost: 0 };
    const tenants = new Map(data.tenants.map((tenant) => [tenant.tenantCode, tenant]));
    let result;
    try {
      result = await withPinnedSelf(0, async () => {
        const signIns = await signInAll(
          data.accounts.map((account, i) => ({
            url: server.url,
            wsUrl: server.wsUrl,
            account,
            tenant: tenants.get(account.tenantCode)!,
            live: i % 100 < plan.liveShare * 100,
            copies,
            recorder,
          })),
          plan.signInConcurrency,
        );
        const field = await connectAnsweringDevices(server.mqttUrl, data.devices);
        const devices = loadDevices(data.devices);
        const payloadOf = telemetryPayloads();
        try {
          // The users stop with the telemetry: when the measured window has lasted its seconds
          // (the warm-up's end waits for its last acknowledgements, however long that takes).
          let usersUntil = Infinity;
          const running = Promise.all(
            signIns.users.map((user) =>
              runUser(user, () => usersUntil, plan.thinkSeconds, plan.tour),
            ),
          );
          const window = { perSecond: plan.perSecond, maxInFlight: plan.maxInFlight };
          const warmup = await publishStep(field.clients, devices, payloadOf, {
            ...window,
            seconds: plan.warmupSeconds,
            // Its last acknowledgements are awaited, so that every message counts in one step.
            drainSeconds: 60,
          });
          recorder.measuring = true;
          copies.measuring = true;
          const measuredFrom = Date.now();
          usersUntil = measuredFrom + plan.seconds * 1000;
          const stopWatchingLoad = watchLoad();
          const cpuBefore = await cpuSeconds(server.pid);
          const waitBefore = await runQueueWaitSeconds(server.pid);
          const generatorBefore = process.cpuUsage();
          const generatorWaitBefore = await runQueueWaitSeconds(process.pid);
          let peakRss = 0;
          const rss: number[] = [];
          const sampler = setInterval(
            () =>
              void residentMiB(server.pid).then((mib) => {
                peakRss = Math.max(peakRss, mib);
                rss.push(mib);
              }),
            1000,
          );
          const step = await publishStep(field.clients, devices, payloadOf, {
            ...window,
            seconds: plan.seconds,
            drainSeconds: 60,
          });
          await running;
          recorder.measuring = false;
          copies.measuring = false;
          clearInterval(sampler);
          const wall = (Date.now() - measuredFrom) / 1000;
          const generatorCpu = process.cpuUsage(generatorBefore);
          return {
            signIns,
            warmup,
            step,
            wall,
            field: { ...field.counts },
            loadAverage1m: stopWatchingLoad(),
            serverCpuPercent: round((((await cpuSeconds(server.pid)) - cpuBefore) / wall) * 100, 1),
            serverRunQueueWaitPercent: round(
              (((await runQueueWaitSeconds(server.pid)) - waitBefore) / wall) * 100,
              1,
            ),
            serverRss: { peakMiB: peakRss, lastMiB: rss.at(-1) ?? 0 },
            generatorCpuPercent: round(
              ((generatorCpu.user + generatorCpu.system) / 1e6 / wall) * 100,
              1,
            ),
            generatorRunQueueWaitPercent: round(
              (((await runQueueWaitSeconds(process.pid)) - generatorWaitBefore) / wall) * 100,
              1,
            ),
          };
        } finally {
          await disconnectAll(field.clients);
          await Promise.all(signIns.users.map((user) => user.close()));
        }
      });
    } catch (error) {
      // Why the server failed the run, beside what the generator saw.
      throw new Error(`${String(error)}\n${serverWarnings(server.output()).join('\n')}`);
    } finally {
      await server.stop();
    }
    const warnings = serverWarnings(server.output());
    // LOAD_SERVER_LOG=<file>: everything the server printed (warnings and errors), to look into.
    if (process.env.LOAD_SERVER_LOG)
      await fs.writeFile(process.env.LOAD_SERVER_LOG, server.output());
    // Counted with the server stopped (PGlite belongs to one process).
    const stored = (await countStoredPoints(target)) - data.readingsBefore;
    const acknowledged = result.warmup.acknowledged + result.step.acknowledged;
    const sent = result.warmup.sent + result.step.sent;
    const usersSummary = recorder.summary(result.wall);
    return {
      backend,
      measuredAt: new Date().toISOString(),
      prepareSeconds,
      signIn: {
        users: result.signIns.users.length,
        seconds: round(result.signIns.seconds, 1),
        perSecond: round(result.signIns.users.length / result.signIns.seconds, 1),
        /** Password sign-in plus the console's first three calls, per user. */
        ...latencySummary(result.signIns.latencies),
      },
      users: usersSummary,
      telemetry: {
        offeredPerSecond: plan.perSecond,
        sent,
        acknowledged,
        ackedPerSecond: result.step.ackedPerSecond,
        heldBack: (result.warmup.heldBack ?? 0) + (result.step.heldBack ?? 0),
        unacknowledged: sent - acknowledged,
        readingsStored: stored,
        /** Acknowledged messages whose readings are not all in the database (must be 0). */
        acknowledgedLost: Math.max(0, acknowledged - Math.floor(stored / VALUES_PER_MESSAGE)),
        deviceAckP50Ms: result.step.ackP50Ms,
        deviceAckP99Ms: result.step.ackP99Ms,
        drainedAfterMs: result.step.drainedAfterMs,
        deviceConnectionsLost: result.field.connectionsLost,
        commandsAnswered: result.field.commandsAnswered,
      },
      live: {
        browsers: result.signIns.users.filter((user) => user.browser).length,
        copiesReceived: copies.received,
        delay: latencySummary(copies.delays),
        connectionsLost: copies.connectionsLost,
      },
      serverCpuPercent: result.serverCpuPercent,
      serverRunQueueWaitPercent: result.serverRunQueueWaitPercent,
      serverRss: result.serverRss,
      generatorCpuPercent: result.generatorCpuPercent,
      generatorRunQueueWaitPercent: result.generatorRunQueueWaitPercent,
      loadAverage1m: result.loadAverage1m,
      serverWarnings: warnings,
    };
  });
}

/** The plan; LOAD_USERS, LOAD_RATE and LOAD_SECONDS explore. */
function plan(smoke: boolean): Plan {
  const base: Plan = smoke
    ? {
        tenants: 2,
        devicesPerTenant: 5,
        users: 6,
        adminShare: 0.34,
        historyPerDay: 24,
        openAlarmsPerTenant: 10,
        notificationsPerTenant: 5,
        perSecond: 50,
        maxInFlight: 20,
        seconds: 8,
        warmupSeconds: 1,
        thinkSeconds: [0.05, 0.2],
        liveShare: 1,
        signInConcurrency: 3,
        tour: true,
      }
    : {
        tenants: 10,
        devicesPerTenant: 100,
        users: 500,
        adminShare: 0.2,
        historyPerDay: 96,
        openAlarmsPerTenant: 200,
        notificationsPerTenant: 30,
        perSecond: 5000,
        maxInFlight: 20,
        seconds: 300,
        warmupSeconds: 15,
        thinkSeconds: [3, 10],
        liveShare: 1,
        signInConcurrency: 8,
        tour: false,
      };
  const env = process.env;
  return {
    ...base,
    users: Number(env.LOAD_USERS) || base.users,
    perSecond: Number(env.LOAD_RATE) || base.perSecond,
    seconds: Number(env.LOAD_SECONDS) || base.seconds,
  };
}

/**
 * A full run of some backends or rates (LOAD_BACKENDS, LOAD_RATE) keeps the earlier results of
 * the others from results/load.json, each with its own measuredAt: one run of both databases at
 * full size takes over a quarter of an hour on a shared machine.
 */
async function earlierResults<
  T extends { backend: string; telemetry: { offeredPerSecond: number } },
>(fresh: T[]): Promise<T[]> {
  const key = (result: T) => `${result.backend}@${result.telemetry.offeredPerSecond}`;
  const taken = new Set(fresh.map(key));
  const file = path.join(REPO_ROOT, 'bench/results/load.json');
  const earlier = await fs.readFile(file, 'utf8').then(
    (text) => (JSON.parse(text) as { results?: T[] }).results ?? [],
    () => [],
  );
  return earlier.filter((result) => !taken.has(key(result)));
}

/** LOAD_BACKENDS (pglite,postgres) picks what runs; PostgreSQL needs TEST_DATABASE_URL. */
const wanted = chosenBy('LOAD_BACKENDS');

/**
 * 500 signed-in users (admins and operators of 10 tenants, each with their own session and live
 * connection) open the console's screens with think time, while 1,000 devices send 5,000 QoS 1
 * telemetry messages a second, for 5 minutes: every error listed, p50/p95/p99 by screen and call,
 * telemetry acknowledged and stored, live copies' delay, server and generator CPU.
 */
export async function runLoad(smoke: boolean) {
  const p = plan(smoke);
  const results = [];
  for (const backend of backends().filter(wanted)) {
    results.push({ ...(await measure(backend, p)), plan: p });
    console.log(
      JSON.stringify({ ...results.at(-1), users: { ...results.at(-1)!.users, byCall: undefined } }),
    );
  }
  const summary = {
    plan: p,
    mix: [...SCREENS, BELL].map((screen) => ({
      screen: screen.name,
      weight: screen.weight,
      roles: screen.roles,
      calls: screen.stages.map((stage) =>
        stage({
          tenant: {
            tenantCode: 't',
            productId: '1',
            devices: [],
            alarmIds: ['1'],
            notificationIds: ['1'],
          },
          username: 'u',
          device: { id: '1', deviceNo: 'D' },
          pick: (list) => list[0]!,
          now: 0,
        }).map((call) => `${call.method} ${urlOf({ ...call, query: undefined })}`),
      ),
    })),
    results: smoke ? results : [...results, ...(await earlierResults(results))],
  };
  const file = await writeResult('load', smoke, summary);
  return { file, summary };
}
