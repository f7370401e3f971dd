import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '@shuili/test-support/api-client';
import { startServer } from '@shuili/test-support/server-process';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  testDatabaseUrl,
  type TestServer,
} from '@shuili/test-support/test-server';
import {
  addJob,
  expectOncePerSecond,
  instanceDetail,
  instancesByNode,
  runJob,
  secondlyJobRun,
  startHookService,
  untilInstance,
  webhookJob,
  type HookService,
} from './jobs-test-kit';

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
    const run = await secondlyJobRun(first, first.db, admin, hook, 60);
    expectOncePerSecond(run);
    // Which node ran each instance: both took part.
    const ran = instancesByNode(run);
    const nodes = [first.app.scheduler.node, second.app.scheduler.node].sort();
    expect([...ran.keys()].sort()).toEqual(nodes);
    console.info(
      `exactly once: 60 occurrences → ${run.made.length} instances; fired by ${JSON.stringify(
        run.fired,
      )}; run by ${JSON.stringify(Object.fromEntries(ran))}`,
    );
  }, 150_000);

  it('an instance whose node is killed mid-run (kill -9) is run again on another node', async () => {
    const child = await startServer({
      DATABASE_URL: await testDatabaseUrl(first),
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
