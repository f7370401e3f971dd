import { entityCalls, jobInfoEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { startServer } from '@shuili/test-support/server-process';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
} from '@shuili/test-support/test-server';
import {
  addJob,
  instanceDetail,
  runJob,
  startHookService,
  untilInstance,
  webhookJob,
  type HookService,
} from './jobs-test-kit';

const calls = entityCalls(jobInfoEntity);

/** The URL of the database a test server runs on (for a server process of its own). */
async function databaseUrl(server: TestServer): Promise<string> {
  const { rows } = await server.db.systemStatement<{ name: string }>(
    'SELECT current_database() AS name',
  );
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

/**
 * Exactly once across nodes (docs/jobs.md): two server nodes on one PostgreSQL both poll every
 * job trigger; each occurrence makes one instance, each instance runs on one node, and a node
 * killed mid-run has its instance run again on the other.
 */
describe.skipIf(!TEST_DATABASE_URL)('jobs on two nodes of one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let hook: HookService;
  let admin: string;

  beforeAll(async () => {
    hook = await startHookService();
    const config = { jobWebhookHosts: ['127.0.0.1'], schedulerRetryBaseMs: 200 };
    first = await startTestServer({ backend: 'postgres', config });
    second = await startSecondNode(first, config);
    admin = (await signIn(first, 'demo', 'admin', 'admin123')).access_token;
  }, 180_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await hook?.close();
  });

  it('a job firing every second for 60 s makes exactly 60 instances, run across both nodes', async () => {
    const id = await addJob(
      first,
      admin,
      webhookJob(hook, '/ok', { timeExpressionType: 'CRON', timeExpression: '* * * * * ?' }),
    );
    // The 60 whole seconds from the first occurrence after the job was saved.
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const end = start + 60_000;
    const instances = async () =>
      (
        await first.db.systemStatement<{ expected: Date; node: string | null; status: string }>(
          `SELECT expected_trigger_time AS expected, task_tracker_address AS node, status
             FROM job_instance WHERE job_id = $1 AND expected_trigger_time >= $2
              AND expected_trigger_time < $3 ORDER BY expected_trigger_time`,
          [id, new Date(start), new Date(end)],
        )
      ).rows;
    await expect
      .poll(async () => (await instances()).filter((one) => one.status === 'SUCCEED').length, {
        timeout: 100_000,
        interval: 1_000,
      })
      .toBe(60);
    await call(first, 'POST', calls.status!, { token: admin, body: { ids: [id], status: 0 } });
    const made = await instances();
    expect(made).toHaveLength(60);
    const seconds = made.map((one) => new Date(one.expected).getTime());
    expect(new Set(seconds).size).toBe(60);
    expect(seconds).toEqual(Array.from({ length: 60 }, (_, index) => start + index * 1000));
    // Which node fired each occurrence, and which ran each instance: both took part.
    const fired = await first.db.systemStatement<{ node: string; count: number }>(
      `SELECT node, count(*)::int AS count FROM scheduler_run
        WHERE kind = 'job.fire' AND key = $1 AND fire_at >= $2 AND fire_at < $3 GROUP BY node`,
      [`job:${id}`, new Date(start), new Date(end)],
    );
    const ran = new Map<string, number>();
    for (const one of made) ran.set(one.node!, (ran.get(one.node!) ?? 0) + 1);
    const nodes = [first.app.scheduler.node, second.app.scheduler.node].sort();
    expect([...ran.keys()].sort()).toEqual(nodes);
    expect(fired.rows.reduce((sum, row) => sum + row.count, 0)).toBe(60);
    // Each occurrence's request went out once.
    const keys = hook.requests.filter((request) => request.path === '/ok').map((one) => one.key);
    expect(new Set(keys).size).toBe(keys.length);
    console.info(
      `exactly once: 60 occurrences → ${made.length} instances; fired by ${JSON.stringify(
        fired.rows,
      )}; run by ${JSON.stringify(Object.fromEntries(ran))}`,
    );
  }, 150_000);

  it('an instance whose node is killed mid-run (kill -9) is run again on another node', async () => {
    const child = await startServer({
      DATABASE_URL: await databaseUrl(first),
      SCHEDULER_LEASE_MS: '3000',
      JOB_WEBHOOK_HOSTS: '127.0.0.1',
      SIM: '0',
    });
    // Only the child polls while the instance is made, so it is the node that takes it.
    await first.app.scheduler.stop();
    await second.app.scheduler.stop();
    try {
      const id = await addJob(first, admin, webhookJob(hook, '/hang-once', { retries: 0 }));
      const instanceId = await runJob(first, admin, id);
      const running = await untilInstance(
        first,
        admin,
        instanceId,
        (one) =>
          one.status === 'RUNNING' &&
          hook.requests.some((r) => r.key === `job-instance:${instanceId}`),
        60_000,
      );
      const doomed = running.taskTrackerAddress!;
      expect(doomed).not.toBe(first.app.scheduler.node);
      process.kill(child.pid, 'SIGKILL');
      await first.app.scheduler.start();
      const done = await untilInstance(
        first,
        admin,
        instanceId,
        (one) => one.status === 'SUCCEED',
        60_000,
      );
      expect(done.taskTrackerAddress).toBe(first.app.scheduler.node);
      expect(done.runningTimes).toBe(2);
      expect(done.result).toContain('second');
      expect(done.logs.map((line) => line.line).join('\n')).toContain(`taken over from ${doomed}`);
      // The same instance id went out twice: the processor's idempotency key.
      expect(hook.requests.filter((r) => r.key === `job-instance:${instanceId}`)).toHaveLength(2);
      expect((await instanceDetail(first, admin, instanceId)).id).toBe(instanceId);
    } finally {
      await child.stop().catch(() => undefined);
      await first.app.scheduler.start();
      await second.app.scheduler.start();
    }
  }, 180_000);
});
