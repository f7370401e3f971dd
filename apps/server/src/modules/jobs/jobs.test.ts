import { entityCalls, JOB_CALLS, jobInfoEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
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

describe.each(BACKENDS)('jobs on $backend', ({ backend, available }) => {
  let server: TestServer;
  let hook: HookService;
  let admin: string;
  let operator: string;
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    hook = await startHookService();
    server = await startTestServer({
      backend,
      // The hook service is on loopback, which webhooks may reach only when allowed.
      config: { jobWebhookHosts: ['127.0.0.1'], schedulerRetryBaseMs: 200 },
    });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  test('refuses a job without a usable schedule, naming the field, and saves nothing', async () => {
    const before = await call(server, 'GET', calls.query, { token: admin });
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ timeExpressionType: 'CRON', timeExpression: '' }, 'timeExpression', /CRON expression/],
      [
        { timeExpressionType: 'CRON', timeExpression: '0 0 25 * * ?' },
        'timeExpression',
        /not a valid CRON/,
      ],
      [
        { timeExpressionType: 'CRON', timeExpression: '0 0 0 1 1 ? 2001' },
        'timeExpression',
        /never fires/,
      ],
      [
        { timeExpressionType: 'FIXED_RATE', timeExpression: '10' },
        'timeExpression',
        /milliseconds/,
      ],
      [{ jobParams: '{"method":"POST"}' }, 'jobParams', /URL is required/],
      [{ jobParams: 'not json' }, 'jobParams', /not valid JSON/],
      [{ executeType: 'MAP' }, 'executeType', /cannot run as MAP/],
    ];
    for (const [overrides, field, message] of cases) {
      const refused = await call(server, 'POST', calls.add, {
        token: admin,
        lang: 'en',
        body: webhookJob(hook, '/ok', overrides),
      });
      expect(refused.status, JSON.stringify(overrides)).toBe(400);
      const problem = (refused.body.errors as Array<{ field: string; message: string }>).find(
        (one) => one.field === field,
      );
      expect(problem?.message, JSON.stringify(refused.body)).toMatch(message);
    }
    // Without a time expression type (spec §5: one must be chosen).
    const { timeExpressionType: _omitted, ...untyped } = webhookJob(hook, '/ok');
    const refused = await call(server, 'POST', calls.add, {
      token: admin,
      lang: 'zh',
      body: untyped,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('timeExpressionType');
    const after = await call(server, 'GET', calls.query, { token: admin });
    expect(after.body.data.total ?? after.body.data.length).toEqual(
      before.body.data.total ?? before.body.data.length,
    );
  });

  test('previews the next five trigger times of a CRON expression in the tenant zone', async () => {
    const preview = await call(server, 'GET', JOB_CALLS.nextTriggerTimes, {
      token: admin,
      query: { timeExpressionType: 'CRON', timeExpression: '0 30 6 ? * MON' },
    });
    expect(preview.status).toBe(200);
    const times = (preview.body.data.times as string[]).map((time) => new Date(time));
    expect(times).toHaveLength(5);
    for (const [index, time] of times.entries()) {
      // 06:30 in Asia/Shanghai is 22:30 UTC on the Sunday before.
      expect(time.getUTCHours()).toBe(22);
      expect(time.getUTCMinutes()).toBe(30);
      expect(time.getUTCDay()).toBe(0);
      if (index > 0) expect(time.getTime() - times[index - 1]!.getTime()).toBe(7 * 86_400_000);
    }
    const bad = await call(server, 'GET', JOB_CALLS.nextTriggerTimes, {
      token: admin,
      lang: 'en',
      query: { timeExpressionType: 'CRON', timeExpression: '* * *' },
    });
    expect(bad.status).toBe(400);
  });

  test('runs a job by hand on a node, with its log, result and next trigger time', async () => {
    const id = await addJob(server, admin, webhookJob(hook, '/ok'));
    const instanceId = await runJob(server, admin, id, '{"note":"by hand"}');
    const done = await untilInstance(server, admin, instanceId, (one) => one.status === 'SUCCEED');
    expect(done).toMatchObject({
      jobId: id,
      triggerType: 'API',
      runningTimes: 1,
      instanceParams: '{"note":"by hand"}',
      taskTrackerAddress: server.app.scheduler.node,
    });
    expect(done.result).toContain('200');
    expect(done.logs.map((line) => line.line).join('\n')).toMatch(/running on .*ended SUCCEED/s);
    const sent = hook.requests.filter((request) => request.key === `job-instance:${instanceId}`);
    expect(sent).toHaveLength(1);
    // A timed job shows when it fires next.
    const timed = await addJob(
      server,
      admin,
      webhookJob(hook, '/ok', { timeExpressionType: 'CRON', timeExpression: '0 0 2 * * ?' }),
    );
    const listed = await call(server, 'GET', calls.query, { token: admin, query: { id: timed } });
    const row = (listed.body.data.list ?? listed.body.data).find(
      (one: { id: string }) => String(one.id) === timed,
    );
    expect(row.scheduleInfo).toBe('CRON 0 0 2 * * ?');
    expect(new Date(row.nextTriggerTime).getTime()).toBeGreaterThan(Date.now());
    // Disabled: no trigger, and a run by hand is refused.
    await call(server, 'POST', calls.status!, { token: admin, body: { ids: [timed], status: 0 } });
    const disabled = await call(server, 'POST', JOB_CALLS.runJob, {
      token: admin,
      body: { id: timed },
    });
    expect(disabled.status).toBe(409);
  });

  test('retries a failing run as many times as the job says, then fails and tells its alarm users', async () => {
    const { rows } = await server.db.systemStatement<{ id: string }>(
      `SELECT u.id::text FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
        WHERE t.tenant_code = 'demo' AND u.username = 'admin'`,
    );
    const id = await addJob(
      server,
      admin,
      webhookJob(hook, '/fail', { retries: 2, alarmUserIds: [rows[0]!.id] }),
    );
    const instanceId = await runJob(server, admin, id);
    const failed = await untilInstance(server, admin, instanceId, (one) => one.status === 'FAILED');
    expect(failed.runningTimes).toBe(3);
    expect(failed.result).toContain('500');
    expect(
      hook.requests.filter((request) => request.key === `job-instance:${instanceId}`),
    ).toHaveLength(3);
    expect(failed.logs.filter((line) => /retry \d of 2/.test(line.line))).toHaveLength(2);
    const notices = await server.db.systemStatement<{ title: string }>(
      `SELECT title FROM notification WHERE content LIKE $1`,
      [`%${instanceId}%`],
    );
    expect(notices.rows[0]?.title).toContain('执行失败');
    // Retry by hand: the same instance runs again.
    const retried = await call(server, 'POST', JOB_CALLS.retryInstance, {
      token: admin,
      body: { id: instanceId },
    });
    expect(retried.status).toBe(200);
    const again = await untilInstance(
      server,
      admin,
      instanceId,
      (one) => one.status === 'FAILED' && one.runningTimes === 6,
    );
    expect(again.id).toBe(instanceId);
  });

  test('stops an instance past its timeout, aborting its work', async () => {
    const id = await addJob(server, admin, webhookJob(hook, '/slow', { timeout: 1_500 }));
    const started = Date.now();
    const instanceId = await runJob(server, admin, id);
    const failed = await untilInstance(server, admin, instanceId, (one) => one.status === 'FAILED');
    expect(failed.result).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect
      .poll(() => hook.aborted.includes(`job-instance:${instanceId}`), { timeout: 10_000 })
      .toBe(true);
  });

  test('stops a running instance by hand; a second one beyond the instance limit fails', async () => {
    const id = await addJob(server, admin, webhookJob(hook, '/slow', { maxInstanceNum: 1 }));
    const first = await runJob(server, admin, id);
    await untilInstance(server, admin, first, (one) => one.status === 'RUNNING');
    const second = await runJob(server, admin, id);
    const refused = await instanceDetail(server, admin, second);
    expect(refused.status).toBe('FAILED');
    expect(refused.result).toMatch(/too many instances/);
    const stopped = await call(server, 'POST', JOB_CALLS.stopInstance, {
      token: admin,
      body: { id: first },
    });
    expect(stopped.status).toBe(200);
    expect((await instanceDetail(server, admin, first)).status).toBe('STOPPED');
    await expect
      .poll(() => hook.aborted.includes(`job-instance:${first}`), { timeout: 10_000 })
      .toBe(true);
    const again = await call(server, 'POST', JOB_CALLS.stopInstance, {
      token: admin,
      lang: 'en',
      body: { id: first },
    });
    expect(again.status).toBe(409);
  });

  test('spec §8: an instance that was never made has no details', async () => {
    const missing = await call(server, 'GET', JOB_CALLS.queryInstanceDetail, {
      token: admin,
      lang: 'en',
      query: { id: '999999999' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('no task instance generated, cannot view details');
  });

  test('broadcasts an instance to every live node as sub-tasks', async () => {
    const id = await addJob(server, admin, webhookJob(hook, '/ok', { executeType: 'BROADCAST' }));
    const instanceId = await runJob(server, admin, id);
    const done = await untilInstance(server, admin, instanceId, (one) => one.status === 'SUCCEED');
    expect(done.subTasks.map((task) => task.taskName)).toEqual([
      `node:${server.app.scheduler.node}`,
    ]);
    expect(done.subTasks[0]).toMatchObject({ status: 'SUCCEED', node: server.app.scheduler.node });
  });

  test('a fixed-rate job fires on its own until disabled; nodes are listed', async () => {
    const id = await addJob(
      server,
      admin,
      webhookJob(hook, '/ok', { timeExpressionType: 'FIXED_RATE', timeExpression: '1000' }),
    );
    const count = async () =>
      (
        await server.db.systemStatement<{ count: number }>(
          `SELECT count(*)::int AS count FROM job_instance WHERE job_id = $1 AND status = 'SUCCEED'`,
          [id],
        )
      ).rows[0]!.count;
    await expect.poll(count, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await call(server, 'POST', calls.status!, { token: admin, body: { ids: [id], status: 0 } });
    const settled = await count();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await count()).toBeLessThanOrEqual(settled + 1);
    const nodes = await call(server, 'GET', JOB_CALLS.queryNodes, { token: admin });
    expect(nodes.status).toBe(200);
    expect(nodes.body.data).toEqual([
      expect.objectContaining({ node: server.app.scheduler.node, alive: true }),
    ]);
    // The default operator holds no job screen: the job calls are refused.
    const refused = await call(server, 'GET', JOB_CALLS.queryNodes, { token: operator });
    expect(refused.status).toBe(403);
  });
});
