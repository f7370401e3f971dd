import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { entityCalls, rotationScheduleEntity, valveGroupEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { OutboxNotifier } from '../../notify/notifier';
import { createZone, irrigationDevice } from '../../monitor/irrigation/irrigation-test-kit';
import { runsOfKey, tenantIdOf, triggerOfKey, until } from '../../scheduler/scheduler-test-kit';
import type { JobRunContext } from '../job-processor';
import { addJob } from '../jobs-test-kit';
import { JOB_PROCESSORS } from '.';
import { rotationJobKey } from './irrigation-program';
import { lastPeriod } from './data-report';
import { lastDays } from './recompute-rollups';

let sequence = 0;
const unique = (what: string) => `${what} ${Date.now() % 100_000}-${(sequence += 1)}`;

/** A local service the webhook calls: records each request, answers by path. */
async function startService() {
  const requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!;
      requests.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (path === '/ok') return void response.writeHead(200).end(`{"echo":"${'x'.repeat(900)}"}`);
      if (path === '/fail') return void response.writeHead(503).end('busy');
      if (path === '/redirect')
        return void response.writeHead(302, { location: 'http://127.0.0.1:1/private' }).end();
      // '/slow': never answers; the caller gives up.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the periods of processors', () => {
  it("a data report's last period is yesterday, the last 7 days or last month in the zone", () => {
    const now = new Date('2026-03-15T03:00:00Z'); // 11:00 on the 15th in Shanghai
    const iso = (period: { start: Date; end: Date; bucket: string }) => [
      period.start.toISOString(),
      period.end.toISOString(),
      period.bucket,
    ];
    expect(iso(lastPeriod('day', now, 'Asia/Shanghai'))).toEqual([
      '2026-03-13T16:00:00.000Z',
      '2026-03-14T16:00:00.000Z',
      'hour',
    ]);
    expect(iso(lastPeriod('week', now, 'Asia/Shanghai'))).toEqual([
      '2026-03-07T16:00:00.000Z',
      '2026-03-14T16:00:00.000Z',
      'day',
    ]);
    expect(iso(lastPeriod('month', new Date('2026-01-10T00:00:00Z'), 'Asia/Shanghai'))).toEqual([
      '2025-11-30T16:00:00.000Z',
      '2025-12-31T16:00:00.000Z',
      'day',
    ]);
  });

  it('recompute rollups maps the last days, oldest first, today included (UTC days)', () => {
    expect(lastDays(3, new Date('2026-03-01T05:00:00Z'))).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
  });
});

describe.each(BACKENDS)('built-in job processors on $backend', ({ backend, available }) => {
  let server: TestServer;
  let service: Awaited<ReturnType<typeof startService>>;
  let tenantId: string;
  let admin: string;
  let adminUserId: string;
  let instanceSequence = 0;
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    service = await startService();
    server = await startTestServer({ backend, config: { jobWebhookHosts: ['127.0.0.1'] } });
    tenantId = await tenantIdOf(server.db, 'demo');
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const { rows } = await server.db.systemStatement<{ id: string }>(
      `SELECT id::text FROM sys_user WHERE tenant_id = $1 AND username = 'admin'`,
      [tenantId],
    );
    adminUserId = rows[0]!.id;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await service?.close();
  });

  /** A job of the processor (API-triggered, so the scheduler never runs it by itself). */
  async function job(processorType: string, jobParams: Record<string, unknown>, extra = {}) {
    return addJob(server, admin, {
      jobName: unique(processorType),
      timeExpressionType: 'API',
      executeType: 'STANDALONE',
      processorType,
      jobParams: JSON.stringify(jobParams),
      status: 1,
      ...extra,
    });
  }

  /** A context as the job service makes it; its log lines are kept for the test. */
  function context(params: Record<string, unknown>, overrides: Partial<JobRunContext> = {}) {
    const lines: string[] = [];
    // Instance ids of their own, far from the service's: the effects are keyed by them.
    const instanceId = String(
      9_000_000 + (backend === 'postgres' ? 500_000 : 0) + (instanceSequence += 1),
    );
    const ctx: JobRunContext = {
      tenantId,
      jobId: '0',
      instanceId,
      idempotencyKey: `job-instance:${instanceId}`,
      attempt: 1,
      params,
      instanceParams: null,
      workflowContext: undefined,
      signal: new AbortController().signal,
      log: async (line) => {
        lines.push(line);
      },
      db: server.db,
      config: server.config,
      logger: server.app.log,
      node: 'test-node',
      timeZone: 'Asia/Shanghai',
      notifier: new OutboxNotifier(server.db, server.app.log, false),
      ...overrides,
    };
    return { ctx, lines };
  }

  test('webhook: calls an allowed address with the instance key, keeps the status and the answer start', async () => {
    const { ctx } = context({
      url: `${service.url}/ok`,
      method: 'POST',
      body: '{"a":1}',
      requestTimeoutMs: 5_000,
    });
    const done = await JOB_PROCESSORS.webhook.run(ctx);
    expect(done.result).toMatch(/^HTTP 200: \{"echo":"x+/);
    expect(done.result.length).toBeLessThanOrEqual('HTTP 200: '.length + 500);
    const request = service.requests.at(-1)!;
    expect(request).toMatchObject({ path: '/ok', body: '{"a":1}' });
    expect(request.headers['idempotency-key']).toBe(ctx.idempotencyKey);
    expect(request.headers['content-type']).toBe('application/json');
  });

  test('webhook: a non-2xx answer and a redirect fail the run; a redirect is not followed', async () => {
    const fail = context({ url: `${service.url}/fail`, method: 'GET', requestTimeoutMs: 5_000 });
    await expect(JOB_PROCESSORS.webhook.run(fail.ctx)).rejects.toThrow(/HTTP 503: busy/);
    const before = service.requests.length;
    const moved = context({
      url: `${service.url}/redirect`,
      method: 'GET',
      requestTimeoutMs: 5_000,
    });
    await expect(JOB_PROCESSORS.webhook.run(moved.ctx)).rejects.toThrow(/HTTP 302.*not followed/);
    expect(service.requests.length).toBe(before + 1);
  });

  test('webhook: an internal address the allow-list lacks is refused, by literal and by name', async () => {
    const config = { ...server.config, jobWebhookHosts: [] };
    const before = service.requests.length;
    for (const url of [
      `${service.url}/ok`,
      `${service.url.replace('127.0.0.1', 'localhost')}/ok`,
    ]) {
      const { ctx } = context({ url, method: 'POST', requestTimeoutMs: 5_000 }, { config });
      await expect(JOB_PROCESSORS.webhook.run(ctx)).rejects.toThrow(/refused/);
    }
    expect(service.requests.length).toBe(before);
  });

  test('webhook: its own time limit, and the instance signal, end a call that hangs', async () => {
    const started = Date.now();
    const slow = context({ url: `${service.url}/slow`, method: 'POST', requestTimeoutMs: 300 });
    await expect(JOB_PROCESSORS.webhook.run(slow.ctx)).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const stop = new AbortController();
    const stopped = context(
      { url: `${service.url}/slow`, method: 'POST', requestTimeoutMs: 60_000 },
      { signal: stop.signal },
    );
    const running = JOB_PROCESSORS.webhook.run(stopped.ctx);
    setTimeout(() => stop.abort(new Error('stopped')), 200);
    await expect(running).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('alarm digest: sums the seeded alarms per level and device, one bell notice and e-mail, once', async () => {
    const device = await irrigationDevice(server.db, 'irrigation_valve', {
      name: unique('Digest'),
    });
    const { rows: named } = await server.db.systemStatement<{ device_name: string }>(
      'SELECT device_name FROM iot_device WHERE id = $1',
      [device.deviceId],
    );
    await server.db.systemStatement(
      `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, started_at, state)
       VALUES ($1, $2, 'flow', 'red', 9, now() - interval '1 hour', 'open'),
              ($1, $2, 'flow', 'red', 9, now() - interval '2 hours', 'cleared'),
              ($1, $2, 'flow', 'yellow', 5, now() - interval '30 minutes', 'open'),
              ($1, $2, 'flow', 'red', 9, now() - interval '30 hours', 'open')`,
      [tenantId, device.deviceId],
    );
    await server.db.systemStatement(
      `UPDATE sys_user SET email = 'admin@example.net' WHERE id = $1`,
      [adminUserId],
    );
    const jobId = await job(
      'alarmDigest',
      { hours: 24, openOnly: true },
      { alarmUserIds: [adminUserId] },
    );
    const { rows: expected } = await server.db.systemStatement<{ n: number }>(
      `SELECT count(*)::int AS n FROM iot_alarm_record
        WHERE tenant_id = $1 AND state = 'open' AND started_at >= now() - interval '24 hours'`,
      [tenantId],
    );
    const { ctx } = context({ hours: 24, openOnly: true }, { jobId });
    const done = await JOB_PROCESSORS.alarmDigest.run(ctx);
    expect(done.result).toMatch(
      new RegExp(`^${expected[0]!.n} alarms .*notified 1 users, 1 e-mails`),
    );
    const { rows: notices } = await server.db.systemStatement<{
      content_i18n: Record<string, string>;
    }>(
      `SELECT content_i18n FROM notification WHERE tenant_id = $1 AND $2 = ANY(publish_targets)
          AND title LIKE '告警摘要%' ORDER BY id DESC`,
      [tenantId, adminUserId],
    );
    expect(notices).toHaveLength(1);
    // The device's open alarms: one red (the cleared one and the old one are left out), one yellow.
    expect(notices[0]!.content_i18n.en).toMatch(
      new RegExp(`Red \\(\\d+\\): .*${named[0]!.device_name} ×1`),
    );
    expect(notices[0]!.content_i18n.en).toMatch(
      new RegExp(`Yellow \\(\\d+\\): .*${named[0]!.device_name} ×1`),
    );
    const mails = await server.db.systemStatement<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox_message WHERE recipient = 'admin@example.net' AND subject LIKE '告警摘要%'`,
    );
    expect(mails.rows[0]!.n).toBe(1);
    // The same instance again (another node after a crash): nothing more is sent.
    const again = await JOB_PROCESSORS.alarmDigest.run(ctx);
    expect(again.result).toContain('already notified');
    const after = await server.db.systemStatement<{ n: number }>(
      `SELECT (SELECT count(*) FROM notification WHERE tenant_id = $1 AND title LIKE '告警摘要%')::int
            + (SELECT count(*) FROM outbox_message WHERE subject LIKE '告警摘要%')::int AS n`,
      [tenantId],
    );
    expect(after.rows[0]!.n).toBe(2);
  });

  test('retention sweep: deletes only ended instances older than the days given', async () => {
    const jobId = await job('retentionSweep', { instanceDays: 30 });
    const insert = (status: string, daysAgo: number) =>
      server.db.systemStatement<{ id: string }>(
        `INSERT INTO job_instance (tenant_id, job_id, status, trigger_type, expected_trigger_time,
                                   finished_time, job_snapshot)
         VALUES ($1, $2, $3, 'API', now() - make_interval(days => $4),
                 CASE WHEN $3 IN ('FAILED', 'SUCCEED', 'CANCELED', 'STOPPED')
                      THEN now() - make_interval(days => $4) END, '{}'::jsonb)
         RETURNING id::text`,
        [tenantId, jobId, status, daysAgo],
      );
    const ids: Record<string, string> = {};
    for (const [name, status, days] of [
      ['oldOk', 'SUCCEED', 40],
      ['oldFailed', 'FAILED', 31],
      ['oldStopped', 'STOPPED', 100],
      ['recentOk', 'SUCCEED', 5],
      ['oldWaiting', 'WAITING_DISPATCH', 40],
      ['oldRunning', 'RUNNING', 40],
    ] as const)
      ids[name] = (await insert(status, days)).rows[0]!.id;
    const { ctx } = context({ instanceDays: 30 });
    const done = await JOB_PROCESSORS.retentionSweep.run(ctx);
    expect(done.result).toMatch(/job instances: 3 deleted/);
    const { rows } = await server.db.systemStatement<{ id: string }>(
      'SELECT id::text FROM job_instance WHERE id = ANY($1::bigint[]) ORDER BY id',
      [Object.values(ids)],
    );
    expect(rows.map((row) => row.id)).toEqual([ids.recentOk, ids.oldWaiting, ids.oldRunning]);
    expect((await JOB_PROCESSORS.retentionSweep.run(ctx)).result).toMatch(
      /job instances: 0 deleted/,
    );
  });

  test('recompute rollups: a drifted hourly rollup is exact again, standalone and mapped by day', async () => {
    const device = await irrigationDevice(server.db, 'irrigation_valve', {
      name: unique('Rollup'),
    });
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    await server.db.systemStatement(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
       VALUES ($1, $2, 'flow', $3, 2), ($1, $2, 'flow', $3::timestamptz + interval '10 minutes', 6)`,
      [tenantId, device.deviceId, hour],
    );
    const rollup = async () =>
      (
        await server.db.systemStatement<{
          n: number;
          sum: number;
          max: number;
          last_value: number;
        }>(
          `SELECT n, sum, max, last_value FROM iot_telemetry_hourly
            WHERE tenant_id = $1 AND device_id = $2 AND key = 'flow' AND hour = $3`,
          [tenantId, device.deviceId, hour],
        )
      ).rows;
    const exact = [{ n: 2, sum: 8, max: 6, last_value: 6 }];
    expect(await rollup()).toEqual(exact);
    const drift = () =>
      server.db.systemStatement(
        `UPDATE iot_telemetry_hourly SET n = 99, sum = 0, max = 0, last_value = 0
          WHERE tenant_id = $1 AND device_id = $2`,
        [tenantId, device.deviceId],
      );
    await drift();
    const { ctx, lines } = context({ days: 2 });
    const done = await JOB_PROCESSORS.recomputeRollups.run(ctx);
    expect(done.result).toMatch(/^\d+ hourly rollups recomputed over 2 days$/);
    expect(lines).toHaveLength(2);
    expect(await rollup()).toEqual(exact);

    await drift();
    const processor = JOB_PROCESSORS.recomputeRollups;
    const tasks = await processor.split!(ctx);
    expect(tasks.map((task) => task.name)).toEqual(lastDays(2));
    const results = [];
    for (const task of tasks) {
      const one = await processor.runTask!(ctx, task);
      results.push({ name: task.name, ok: true, result: one.result });
    }
    expect(await rollup()).toEqual(exact);
    const sum = results.reduce((total, one) => total + Number(one.result), 0);
    expect(sum).toBeGreaterThan(0);
    expect((await processor.reduce!(ctx, results)).result).toBe(
      `${sum} hourly rollups recomputed over 2 days`,
    );
    await expect(
      processor.reduce!(ctx, [...results, { name: '2000-01-01', ok: false, result: 'boom' }]),
    ).rejects.toThrow(/failed: 2000-01-01/);
  });

  test('data report: an e-mail with the area report attached, once per instance', async () => {
    const device = await irrigationDevice(server.db, 'irrigation_valve', {
      name: unique('Report'),
    });
    // A reading of yesterday (the tenant's zone) for the report's hourly series.
    await server.db.systemStatement(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
       VALUES ($1, $2, 'flow', date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai' - interval '12 hours', 4.5)`,
      [tenantId, device.deviceId],
    );
    const recipient = `${unique('report').replace(/\W/g, '')}@example.net`;
    const params = {
      areaCode: 'irrigation',
      period: 'day',
      format: 'csv',
      recipients: [recipient],
    };
    const { ctx } = context(params);
    const done = await JOB_PROCESSORS.dataReport.run(ctx);
    expect(done.result).toMatch(/^report-irrigation.*\.csv: \d+ series, e-mailed to 1 recipients$/);
    const mail = async () =>
      (
        await server.db.systemStatement<{
          subject: string;
          filename: string;
          content: Buffer;
          content_type: string;
        }>(
          `SELECT m.subject, a.filename, a.content, a.content_type FROM outbox_message m
             JOIN outbox_attachment a ON a.message_id = m.id WHERE m.recipient = $1`,
          [recipient],
        )
      ).rows;
    const sent = await mail();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toMatch(/data report/);
    expect(sent[0]!.content_type).toMatch(/^text\/csv/);
    expect(Buffer.from(sent[0]!.content).toString('utf8')).toContain(device.deviceNo);
    await JOB_PROCESSORS.dataReport.run(ctx);
    expect(await mail()).toHaveLength(1);
  });

  test('irrigation program: starts a rotation once, however often its instance runs', async () => {
    const zoneId = await createZone(server.db, tenantId, unique('Jobs zone'));
    const valve = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
    const group = await call(server, 'POST', entityCalls(valveGroupEntity).add, {
      token: admin,
      body: { groupName: unique('Group'), members: [`${valve.deviceId}:1`] },
    });
    expect(group.status).toBe(200);
    const rotation = await call(server, 'POST', entityCalls(rotationScheduleEntity).add, {
      token: admin,
      body: {
        scheduleName: unique('Rotation'),
        steps: [`${String(group.body.data.id)}:5`],
        startTime: '06:00',
        daysOfWeek: ['1', '2', '3', '4', '5', '6', '7'],
      },
    });
    expect(rotation.status).toBe(200);
    const scheduleId = String(rotation.body.data.id);
    const { ctx } = context({ scheduleId });
    const first = await JOB_PROCESSORS.irrigationProgram.run(ctx);
    expect(first.result).toMatch(/started: 1 groups, 5 min/);
    const second = await JOB_PROCESSORS.irrigationProgram.run(ctx);
    expect(second.result).toMatch(/started: 1 groups, 5 min/);
    const runs = await until(
      () => runsOfKey(server.db, rotationJobKey(ctx.idempotencyKey)),
      (found) => found.length > 0,
      'the start ran',
    );
    expect(runs).toHaveLength(1);
    // The second run did not arm the start again: its one trigger stays done, with one run.
    expect((await triggerOfKey(server.db, rotationJobKey(ctx.idempotencyKey)))?.state).toBe('done');
    expect(await runsOfKey(server.db, rotationJobKey(ctx.idempotencyKey))).toHaveLength(1);
    const holds = await server.db.systemStatement<{ n: number }>(
      `SELECT count(*)::int AS n FROM irrigation_channel_hold WHERE holder = $1 AND until > now()`,
      [`rotation:${scheduleId}`],
    );
    expect(holds.rows[0]!.n).toBe(1);
    await expect(
      JOB_PROCESSORS.irrigationProgram.run(context({ scheduleId: '999999999' }).ctx),
    ).rejects.toThrow(/does not exist/);
  });
});
