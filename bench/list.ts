import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { entityCalls, iotDeviceEntity } from '@shuili/contract';
import { createTestPostgresDatabase } from '@shuili/test-support/test-server';
import { keepAliveClient } from './lib/http-load';
import { prepareDevices } from './lib/list-data';
import { watchLoad } from './lib/machine-load';
import { startPeerProcess, type RunningPeer } from './lib/peer-process';
import { writeResult } from './lib/results';
import { canPin, startServer, withPinnedSelf } from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import { closedLoop, median, quantile, round } from './lib/stats';
import type { Target } from '@shuili/test-support/database-target';

/** The goals for the list: req/s, p99 under load, and the share of the bare handler. */
const GOAL = { perSecond: 3_000, p99Ms: 50, ofPeer: 0.8 };
const PAGE_SIZE = 50;
/** The console's device list (ResourcePage of iotDeviceEntity): first page, 50 rows, no sort. */
const CALL = `${entityCalls(iotDeviceEntity).query}?currentPage=1&pageSize=${PAGE_SIZE}`;

interface Plan {
  tenants: number;
  devicesPerTenant: number;
  warmup: number;
  sequential: number;
  connections: number;
  seconds: number;
  runs: number;
}

type TargetName = 'shuili' | 'peer' | 'fastify-hello';
interface Running extends RunningPeer {
  name: TargetName;
}

interface Measured {
  target: TargetName;
  alone: { requests: number; p50Ms: number; p99Ms: number; maxMs: number; errors: number };
  loaded: {
    connections: number;
    seconds: number;
    perSecond: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
    runs: { perSecond: number; p50Ms: number; p99Ms: number; errors: number }[];
  };
}

/** The first page from one target, checked: the tenant's total and a full page of rows. */
async function firstPage(target: Running, plan: Plan) {
  const client = keepAliveClient(target.url, target.headers, 1);
  try {
    const answer = await client.get(CALL);
    const body = JSON.parse(answer.body) as { data?: { total: number; list: unknown[] } };
    if (answer.status !== 200 || body.data?.total !== plan.devicesPerTenant)
      throw new Error(
        `${target.name}: unexpected answer ${answer.status} ${answer.body.slice(0, 300)}`,
      );
    if (body.data.list.length !== Math.min(PAGE_SIZE, plan.devicesPerTenant))
      throw new Error(`${target.name}: ${body.data.list.length} rows`);
    return body.data;
  } finally {
    client.close();
  }
}

/**
 * One request at a time, then closed-loop load, on every target. Targets take turns in short
 * blocks (alone) and run by run (loaded), so a busy moment of the machine (other work on it)
 * falls on all of them alike instead of on whichever happened to run then.
 */
async function measure(targets: Running[], plan: Plan): Promise<Measured[]> {
  const latencies = targets.map(() => [] as number[]);
  const errors = targets.map(() => 0);
  const singles = targets.map((target) => keepAliveClient(target.url, target.headers, 1));
  try {
    for (const single of singles) for (let i = 0; i < plan.warmup; i += 1) await single.get(CALL);
    const rounds = 10;
    for (let block = 0; block < rounds; block += 1) {
      for (const [t, single] of singles.entries()) {
        for (let i = 0; i < Math.ceil(plan.sequential / rounds); i += 1) {
          const t0 = performance.now();
          const answer = await single.get(CALL).catch(() => undefined);
          latencies[t]!.push(performance.now() - t0);
          if (answer?.status !== 200) errors[t]! += 1;
        }
      }
    }
  } finally {
    for (const single of singles) single.close();
  }

  type Run = Awaited<ReturnType<typeof closedLoop>>;
  const runs = targets.map(() => [] as Run[]);
  for (let run = 0; run < plan.runs; run += 1) {
    for (const [t, target] of targets.entries()) {
      // Each run opens its own connections, so none sits idle long enough to be closed under it.
      const client = keepAliveClient(target.url, target.headers, plan.connections);
      try {
        runs[t]!.push(
          await closedLoop(plan.connections, plan.seconds, () =>
            client.get(CALL).then((answer) => answer.status === 200),
          ),
        );
      } finally {
        client.close();
      }
    }
  }

  return targets.map((target, t) => {
    const times = latencies[t]!;
    const summaries = runs[t]!.map((r) => ({
      perSecond: round(r.perSecond),
      p50Ms: round(quantile(r.latencies, 0.5)),
      p99Ms: round(quantile(r.latencies, 0.99)),
      errors: r.failures,
    }));
    return {
      target: target.name,
      alone: {
        requests: times.length,
        p50Ms: round(quantile(times, 0.5)),
        p99Ms: round(quantile(times, 0.99)),
        maxMs: round(Math.max(...times)),
        errors: errors[t]!,
      },
      loaded: {
        connections: plan.connections,
        seconds: plan.seconds,
        perSecond: round(median(summaries.map((s) => s.perSecond))),
        p50Ms: round(median(summaries.map((s) => s.p50Ms))),
        p99Ms: round(median(summaries.map((s) => s.p99Ms))),
        errors: summaries.reduce((sum, s) => sum + s.errors, 0),
        runs: summaries,
      },
    };
  });
}

/** Shuili against its peers and the goals. */
function verdict(shuili: Measured, peer: Measured, hello: Measured) {
  const ofPeer = round(shuili.loaded.perSecond / peer.loaded.perSecond);
  // The targets take turns within each run, so run i of each saw the same moment of the machine:
  // the ratio run by run is the one a change of load on the machine does not skew.
  const runByRun = shuili.loaded.runs.map((run, i) =>
    round(run.perSecond / peer.loaded.runs[i]!.perSecond),
  );
  return {
    shuiliOverPeer: {
      perSecond: ofPeer,
      perSecondRunByRun: runByRun,
      perSecondRunByRunMedian: round(median(runByRun)),
      loadedP99: round(shuili.loaded.p99Ms / peer.loaded.p99Ms),
      aloneP50: round(shuili.alone.p50Ms / peer.alone.p50Ms),
      aloneP99: round(shuili.alone.p99Ms / peer.alone.p99Ms),
    },
    shuiliOverFastifyHello: { perSecond: round(shuili.loaded.perSecond / hello.loaded.perSecond) },
    peerOverFastifyHello: { perSecond: round(peer.loaded.perSecond / hello.loaded.perSecond) },
    goals: {
      perSecond: shuili.loaded.perSecond >= GOAL.perSecond,
      p99: shuili.loaded.p99Ms < GOAL.p99Ms,
      ofPeer: ofPeer >= GOAL.ofPeer,
    },
  };
}

/** A fresh database for one backend: its targets for the server and the peer, and its removal. */
async function freshDatabase(backend: 'pglite' | 'postgres') {
  if (backend === 'postgres') {
    const created = await createTestPostgresDatabase();
    const target: Target = { kind: 'postgres', url: created.url };
    return { server: target, peer: target, drop: created.drop };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-bench-list-'));
  return {
    server: { kind: 'pglite', dataDir: path.join(dataDir, 'server') } as Target,
    peer: { kind: 'pglite', dataDir: path.join(dataDir, 'peer') } as Target,
    drop: () => fs.rm(dataDir, { recursive: true, force: true }),
  };
}

/**
 * The device list (issue: 100,000 devices in 100 tenants, page of 50 with total, 50 connections,
 * 30 s; >= 3,000 req/s, p99 < 50 ms, >= 0.8 of the bare handler) on each database, beside a bare
 * node:http handler running the same SQL and Fastify's hello world. LIST_CPU_PROFILE=<dir> runs
 * the server under node --cpu-prof and writes its profile there.
 */
export async function runList(smoke: boolean) {
  const started = performance.now();
  const load = watchLoad();
  const plan: Plan = smoke
    ? {
        tenants: 2,
        devicesPerTenant: 60,
        warmup: 5,
        sequential: 20,
        connections: 50,
        seconds: 0.5,
        runs: 1,
      }
    : {
        tenants: 100,
        devicesPerTenant: 1_000,
        warmup: 200,
        sequential: 1_000,
        connections: 50,
        seconds: 30,
        runs: 3,
      };
  const backends: ('pglite' | 'postgres')[] = ['pglite'];
  if (process.env.TEST_DATABASE_URL) backends.push('postgres');
  const profileDir = process.env.LIST_CPU_PROFILE;

  const results = [];
  for (const backend of backends) {
    const database = await freshDatabase(backend);
    const stops: (() => Promise<void>)[] = [];
    try {
      const seedStarted = performance.now();
      const tenantId = await prepareDevices(database.server, plan.tenants, plan.devicesPerTenant);
      const seedSeconds = round((performance.now() - seedStarted) / 1000);
      // PGlite belongs to one process: the peer gets a copy of the folder, made while closed.
      if (database.server.kind === 'pglite' && database.peer.kind === 'pglite')
        await fs.cp(database.server.dataDir, database.peer.dataDir, { recursive: true });

      // Without the demo simulation, which would change demo's devices (online, last seen)
      // under the server alone, so that the server and the peer list the same rows.
      const server = await startServer(
        {
          SIM: 'false',
          ...(database.server.kind === 'postgres' ? { DATABASE_URL: database.server.url } : {}),
        },
        1,
        {
          ...(database.server.kind === 'pglite' ? { dataDir: database.server.dataDir } : {}),
          ...(profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {}),
        },
      );
      stops.push(server.stop);
      const shuili: Running = {
        name: 'shuili',
        url: server.url,
        headers: { authorization: `Bearer ${await signIn(server.url)}` },
        stop: server.stop,
      };
      const peerProcess = await startPeerProcess('entity-list-peer.ts', {
        target: database.peer,
        tenantId,
        entity: iotDeviceEntity.name,
      });
      stops.push(peerProcess.stop);
      const helloProcess = await startPeerProcess('fastify-hello-peer.ts', {});
      stops.push(helloProcess.stop);
      const peer: Running = { name: 'peer', ...peerProcess };
      const hello: Running = { name: 'fastify-hello', ...helloProcess };

      if (!isDeepStrictEqual(await firstPage(shuili, plan), await firstPage(peer, plan)))
        throw new Error('the peer does not answer the same rows as the server');
      // The load generator (this process) on core 0; the server and its peers on core 1.
      const [s, p, h] = await withPinnedSelf(0, () => measure([shuili, peer, hello], plan));
      results.push({
        backend,
        seedSeconds,
        shuili: s!,
        peer: p!,
        fastifyHello: h!,
        ...verdict(s!, p!, h!),
      });
    } finally {
      for (const stop of stops.reverse()) await stop();
      await database.drop();
    }
  }
  const summary = {
    pinned: await canPin(),
    call: `GET ${CALL}`,
    plan,
    goal: GOAL,
    peers: {
      peer: 'node:http + the server database layer running entityRepo.page (same SQL, same tenant transaction), no auth, JSON.stringify',
      fastifyHello: "Fastify's hello world, no logger",
    },
    machineLoad: load(),
    runSeconds: round((performance.now() - started) / 1000),
    results,
  };
  const file = await writeResult('list', smoke, summary);
  return { file, summary };
}
