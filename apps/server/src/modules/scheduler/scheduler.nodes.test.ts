import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  testDatabaseUrl,
  type TestServer,
} from '@shuili/test-support/test-server';
import { EXIT_WITH_PARENT } from '@shuili/test-support/server-process';
import { scheduleOnce, Scheduler, type SchedulerRun } from './scheduler.service';
import { runsOfKey, tenantIdOf, triggerOfKey, until } from './scheduler-test-kit';

const here = path.dirname(fileURLToPath(import.meta.url));

describe.skipIf(!TEST_DATABASE_URL)('the scheduler on several nodes of one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let tenantId: string;
  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres' });
    second = await startSecondNode(first);
    tenantId = await tenantIdOf(first.db, 'demo');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('fires each trigger exactly once although both nodes poll for it', async () => {
    const calls: Array<{ node: string; run: SchedulerRun }> = [];
    for (const node of [first, second])
      node.app.scheduler.registerProcessor('test.contended', async (run) => {
        calls.push({ node: node.app.scheduler.node, run });
        // Held a while, so the other node polls many times while the run is under way.
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
    const keys = Array.from({ length: 40 }, (_, index) => `test:contended:${Date.now()}:${index}`);
    const dueAt = new Date(Date.now() + 300);
    await first.db.tenant(tenantId, async (sql) => {
      for (const key of keys)
        await scheduleOnce(sql, { tenantId, kind: 'test.contended', key, dueAt });
    });
    for (const key of keys)
      await until(
        () => runsOfKey(first.db, key),
        (runs) => runs[0]?.state === 'succeeded',
        `${key} ran`,
      );
    expect(calls).toHaveLength(keys.length);
    expect(new Set(calls.map((call) => call.run.key))).toEqual(new Set(keys));
    // Both nodes took part (each claims at most its share of a batch at a time).
    expect(new Set(calls.map((call) => call.node))).toEqual(
      new Set([first.app.scheduler.node, second.app.scheduler.node]),
    );
    for (const key of keys) expect(await runsOfKey(first.db, key)).toHaveLength(1);
  });

  it('a run whose node was killed mid-run is taken over by another under the same run id', async () => {
    const key = `test:hang:${Date.now()}`;
    const child = spawn(
      process.execPath,
      [...EXIT_WITH_PARENT, '--import', 'tsx', path.join(here, 'scheduler-node.fixture.ts')],
      {
        env: { ...process.env, FIXTURE_DATABASE_URL: await testDatabaseUrl(first) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await until(
        async () => output,
        (text) => text.includes('ready') || child.exitCode !== null,
        'the doomed node started',
        60_000,
      );
      expect(child.exitCode).toBeNull();
      await first.db.tenant(tenantId, (sql) =>
        scheduleOnce(sql, { tenantId, kind: 'test.hang', key, dueAt: new Date() }),
      );
      await until(
        async () => output,
        (text) => text.includes('claimed'),
        'the doomed node claimed',
      );
      const [held] = await runsOfKey(first.db, key);
      expect(held).toMatchObject({ node: 'doomed-node', attempt: 1, state: 'running' });
      expect(output).toContain(`claimed ${held!.id} attempt 1`);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    // A live node now: it takes the run over once the dead node's lease has lapsed.
    const survivor = new Scheduler({ db: second.db, log: second.app.log, node: 'survivor' });
    const taken: SchedulerRun[] = [];
    survivor.registerProcessor('test.hang', async (run) => {
      taken.push(run);
    });
    await survivor.start();
    try {
      const [run] = await until(
        () => runsOfKey(first.db, key),
        (runs) => runs[0]?.state === 'succeeded',
        'the survivor finished the run',
      );
      expect(run).toMatchObject({ node: 'survivor', attempt: 2 });
      expect(taken).toHaveLength(1);
      expect(taken[0]).toMatchObject({ runId: run!.id, attempt: 2 });
      expect((await triggerOfKey(first.db, key))?.state).toBe('done');
    } finally {
      await survivor.stop();
    }
  });
});
