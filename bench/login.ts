import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestPostgresDatabase } from '@shuili/test-support/test-server';
import { writeResult } from './lib/results';
import { canPin, REPO_ROOT, startServer } from '@shuili/test-support/server-process';
import { closedLoop, median, quantile, round } from './lib/stats';

const BASIC = `Basic ${Buffer.from('browser:browser').toString('base64')}`;
const CONCURRENCY = 20;

/** One password sign-in as the console sends it; true when a token came back. */
async function signIn(url: string): Promise<boolean> {
  const response = await fetch(
    `${url}/api/uaa/oauth/token?grant_type=password&type=account&scope=ui&client_id=browser&tenantCode=demo&username=admin&password=admin123`,
    {
      method: 'POST',
      headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    },
  );
  const body = (await response.json()) as { access_token?: string };
  return response.ok && Boolean(body.access_token);
}

async function argon2Peer(seconds: number): Promise<number> {
  const script = path.join(REPO_ROOT, 'bench/lib/argon2-peer.ts');
  const args = ['--import', 'tsx', script, String(seconds)];
  const { stdout } = (await canPin())
    ? await promisify(execFile)('taskset', ['-c', '1', process.execPath, ...args], {
        cwd: REPO_ROOT,
      })
    : await promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT });
  return JSON.parse(stdout.trim().split('\n').pop()!).verificationsPerSecond;
}

/** Token endpoint latency alone and under 20 concurrent sign-ins, on each database (issue 6 §7). */
export async function runLogin(smoke: boolean) {
  const runs = smoke ? 1 : 3;
  const seconds = smoke ? 1 : 15;
  const backends: { name: string; env: Record<string, string>; drop?: () => Promise<void> }[] = [
    { name: 'pglite', env: {} },
  ];
  if (process.env.TEST_DATABASE_URL) {
    const created = await createTestPostgresDatabase();
    backends.push({ name: 'postgres', env: { DATABASE_URL: created.url }, drop: created.drop });
  }

  const results = [];
  for (const backend of backends) {
    const server = await startServer(backend.env, 1);
    try {
      await signIn(server.url); // warm-up: first argon2 and JIT
      const single: number[] = [];
      for (let i = 0; i < (smoke ? 5 : 50); i += 1) {
        const t0 = performance.now();
        if (!(await signIn(server.url))) throw new Error('a sign-in failed');
        single.push(performance.now() - t0);
      }
      const loaded = [];
      for (let run = 0; run < runs; run += 1)
        loaded.push(await closedLoop(CONCURRENCY, seconds, () => signIn(server.url)));
      results.push({
        backend: backend.name,
        singleP50Ms: round(median(single)),
        concurrent: {
          concurrency: CONCURRENCY,
          perSecond: round(median(loaded.map((run) => run.perSecond))),
          p50Ms: round(median(loaded.map((run) => quantile(run.latencies, 0.5)))),
          p99Ms: round(median(loaded.map((run) => quantile(run.latencies, 0.99)))),
          failures: loaded.reduce((sum, run) => sum + run.failures, 0),
        },
      });
    } finally {
      await server.stop();
      await backend.drop?.();
    }
  }
  const peer = await argon2Peer(smoke ? 1 : 10);
  const summary = {
    pinned: await canPin(),
    peer: { name: 'bare argon2id verify, one core', perSecond: round(peer) },
    results: results.map((result) => ({
      ...result,
      ratioToPeer: round(result.concurrent.perSecond / peer),
    })),
  };
  const file = await writeResult('login', smoke, summary);
  return { file, summary };
}
