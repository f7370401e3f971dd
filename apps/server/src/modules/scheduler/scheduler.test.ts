import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import {
  cancel,
  scheduleOnce,
  scheduleRecurring,
  Scheduler,
  type SchedulerRun,
} from './scheduler.service';
import {
  restartableServer,
  runsOfKey,
  tenantIdOf,
  triggerOfKey,
  until,
} from './scheduler-test-kit';

let sequence = 0;
/** A key no other test (or run of the suite on the same database) uses. */
const uniqueKey = (what: string) => `test:${what}:${Date.now()}:${(sequence += 1)}`;

describe.each(BACKENDS)('the scheduler core on $backend', ({ backend, available }) => {
  let server: TestServer;
  let tenantId: string;
  const seen: SchedulerRun[] = [];
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    tenantId = await tenantIdOf(server.db, 'demo');
    server.app.scheduler.registerProcessor('test.record', async (run) => {
      seen.push(run);
      return run.payload.skip ? { state: 'skipped', result: { reason: 'asked to' } } : undefined;
    });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(
    "a trigger scheduled in the caller's transaction runs once, with its payload and run id",
    async () => {
      const key = uniqueKey('once');
      await server.db.tenant(tenantId, (sql) =>
        scheduleOnce(sql, {
          tenantId,
          kind: 'test.record',
          key,
          dueAt: new Date(),
          payload: { valve: 3 },
        }),
      );
      const [run] = await until(
        () => runsOfKey(server.db, key),
        (runs) => runs[0]?.state === 'succeeded',
        'the run succeeded',
      );
      const calls = seen.filter((one) => one.key === key);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        runId: run!.id,
        tenantId,
        attempt: 1,
        payload: { valve: 3 },
        timeZone: 'Asia/Shanghai',
        node: server.app.scheduler.node,
      });
      expect((await triggerOfKey(server.db, key))?.state).toBe('done');
    },
  );

  it.skipIf(!available)('a trigger whose transaction rolled back does not exist', async () => {
    const key = uniqueKey('rollback');
    await expect(
      server.db.tenant(tenantId, async (sql) => {
        await scheduleOnce(sql, { tenantId, kind: 'test.record', key, dueAt: new Date() });
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await triggerOfKey(server.db, key)).toBeUndefined();
  });

  it.skipIf(!available)(
    'a cancelled trigger never runs, one scheduled after it does; a processor may skip',
    async () => {
      const cancelled = uniqueKey('cancelled');
      const sentinel = uniqueKey('sentinel');
      // Both in one transaction: the poller sees the cancelled one only as cancelled.
      await server.db.tenant(tenantId, async (sql) => {
        await scheduleOnce(sql, {
          tenantId,
          kind: 'test.record',
          key: cancelled,
          dueAt: new Date(),
        });
        expect(await cancel(sql, cancelled)).toBe(true);
        await scheduleOnce(sql, {
          tenantId,
          kind: 'test.record',
          key: sentinel,
          dueAt: new Date(Date.now() + 50),
          payload: { skip: true },
        });
      });
      const [run] = await until(
        () => runsOfKey(server.db, sentinel),
        (runs) => runs[0]?.state === 'skipped',
        'the sentinel ran',
      );
      expect(run!.result).toEqual({ reason: 'asked to' });
      expect(await runsOfKey(server.db, cancelled)).toEqual([]);
      expect((await triggerOfKey(server.db, cancelled))?.state).toBe('cancelled');
      // Cancelling what ended already changes nothing.
      expect(await server.db.tenant(tenantId, (sql) => cancel(sql, sentinel))).toBe(false);
    },
  );

  it.skipIf(!available)('another tenant cannot cancel or see a trigger (RLS)', async () => {
    const key = uniqueKey('rls');
    const acme = await tenantIdOf(server.db, 'acme');
    await server.db.tenant(tenantId, (sql) =>
      scheduleOnce(sql, {
        tenantId,
        kind: 'test.unregistered',
        key,
        dueAt: new Date(Date.now() + 3_600_000),
      }),
    );
    expect(await server.db.tenant(acme, (sql) => cancel(sql, key))).toBe(false);
    expect((await triggerOfKey(server.db, key))?.state).toBe('waiting');
    await expect(
      server.db.tenant(acme, (sql) =>
        scheduleOnce(sql, {
          tenantId,
          kind: 'test.record',
          key: uniqueKey('x'),
          dueAt: new Date(),
        }),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it.skipIf(!available)(
    'a failing processor is retried under the same run id, then its run succeeds',
    async () => {
      const retrying = new Scheduler({
        db: server.db,
        log: server.app.log,
        node: 'retry-node',
        retryBaseMs: 20,
      });
      const attempts: SchedulerRun[] = [];
      retrying.registerProcessor('test.flaky', async (run) => {
        attempts.push(run);
        if (run.attempt < 3) throw new Error(`attempt ${run.attempt} failed`);
        return { result: { done: true } };
      });
      await retrying.start();
      try {
        const key = uniqueKey('flaky');
        await server.db.tenant(tenantId, (sql) =>
          scheduleOnce(sql, { tenantId, kind: 'test.flaky', key, dueAt: new Date() }),
        );
        const [run] = await until(
          () => runsOfKey(server.db, key),
          (runs) => runs[0]?.state === 'succeeded',
          'the third attempt succeeded',
        );
        expect(attempts.map((one) => one.attempt)).toEqual([1, 2, 3]);
        expect(new Set(attempts.map((one) => one.runId))).toEqual(new Set([run!.id]));
        expect(run).toMatchObject({ attempt: 3, error: null, result: { done: true } });
        // One that never succeeds fails after its attempts, with the last error kept.
        const hopeless = uniqueKey('hopeless');
        retrying.registerProcessor('test.hopeless', async () => {
          throw new Error('always broken');
        });
        await server.db.tenant(tenantId, (sql) =>
          scheduleOnce(sql, {
            tenantId,
            kind: 'test.hopeless',
            key: hopeless,
            dueAt: new Date(),
            maxAttempts: 2,
          }),
        );
        const [failed] = await until(
          () => runsOfKey(server.db, hopeless),
          (runs) => runs[0]?.state === 'failed',
          'the run failed',
        );
        expect(failed).toMatchObject({ attempt: 2, error: 'always broken' });
        expect(await triggerOfKey(server.db, hopeless)).toMatchObject({
          state: 'failed',
          last_error: 'always broken',
        });
      } finally {
        await retrying.stop();
      }
    },
  );

  it.skipIf(!available)(
    'a recurring trigger runs each occurrence once, a new run id each time, until cancelled',
    async () => {
      const key = uniqueKey('every');
      const { dueAt } = await server.db.tenant(tenantId, (sql) =>
        scheduleRecurring(sql, {
          tenantId,
          kind: 'test.record',
          key,
          recurrence: { type: 'interval', seconds: 1 },
        }),
      );
      const runs = await until(
        () => runsOfKey(server.db, key),
        (found) => found.filter((one) => one.state === 'succeeded').length >= 2,
        'two occurrences ran',
      );
      await server.db.tenant(tenantId, (sql) => cancel(sql, key));
      expect(runs[0]!.fire_at.getTime()).toBe(dueAt.getTime());
      expect(runs[1]!.fire_at.getTime() - runs[0]!.fire_at.getTime()).toBe(1000);
      expect(runs[0]!.id).not.toBe(runs[1]!.id);
    },
  );

  it.skipIf(!available)(
    'forgets one-off triggers a week after they ended and runs past their history, nothing newer',
    async () => {
      const [oldKey, newKey] = [uniqueKey('purged'), uniqueKey('kept')];
      for (const key of [oldKey, newKey])
        await server.db.tenant(tenantId, (sql) =>
          scheduleOnce(sql, { tenantId, kind: 'test.record', key, dueAt: new Date() }),
        );
      const ran = (key: string) =>
        until(
          () => runsOfKey(server.db, key),
          (runs) => runs[0]?.state === 'succeeded',
          `${key} ran`,
        );
      const [oldRun] = await ran(oldKey);
      await ran(newKey);
      await until(
        () => triggerOfKey(server.db, oldKey),
        (trigger) => trigger?.state === 'done',
        'the trigger is done',
      );
      // The old trigger ended 8 days ago, its run 401 days ago, with an effect it recorded.
      await server.db.system(async (sql) => {
        await sql.query(
          `UPDATE scheduler_trigger SET updated_at = now() - interval '8 days' WHERE key = $1`,
          [oldKey],
        );
        await sql.query(
          `UPDATE scheduler_run SET finished_at = now() - interval '401 days' WHERE id = $1`,
          [oldRun!.id],
        );
        await sql.query(
          `INSERT INTO scheduler_run_effect (tenant_id, run_id, effect) VALUES ($1, $2, 'test')`,
          [tenantId, oldRun!.id],
        );
      });
      const purged = await server.app.scheduler.purge();
      expect(purged.triggers).toBeGreaterThanOrEqual(1);
      expect(purged.runs).toBeGreaterThanOrEqual(1);
      expect(await triggerOfKey(server.db, oldKey)).toBeUndefined();
      expect(await runsOfKey(server.db, oldKey)).toEqual([]);
      const effects = await server.db.systemStatement(
        'SELECT 1 FROM scheduler_run_effect WHERE run_id = $1',
        [oldRun!.id],
      );
      expect(effects.rows).toEqual([]);
      expect((await triggerOfKey(server.db, newKey))?.state).toBe('done');
      expect(await runsOfKey(server.db, newKey)).toHaveLength(1);
    },
  );

  it.skipIf(!available)(
    'forgets the runs of a kind of shorter history sooner, the others stay',
    async () => {
      server.app.scheduler.registerProcessor('test.brief', async () => undefined, {
        keepRunsDays: 2,
      });
      const [briefKey, longKey] = [uniqueKey('brief'), uniqueKey('long')];
      for (const [key, kind] of [
        [briefKey, 'test.brief'],
        [longKey, 'test.record'],
      ] as const)
        await server.db.tenant(tenantId, (sql) =>
          scheduleOnce(sql, { tenantId, kind, key, dueAt: new Date() }),
        );
      for (const key of [briefKey, longKey])
        await until(
          () => runsOfKey(server.db, key),
          (runs) => runs[0]?.state === 'succeeded',
          `${key} ran`,
        );
      await server.db.system((sql) =>
        sql.query(
          `UPDATE scheduler_run SET finished_at = now() - interval '3 days' WHERE key = ANY($1)`,
          [[briefKey, longKey]],
        ),
      );
      await server.app.scheduler.purge();
      expect(await runsOfKey(server.db, briefKey)).toEqual([]);
      expect(await runsOfKey(server.db, longKey)).toHaveLength(1);
    },
  );
});

describe.each(BACKENDS)('the scheduler across a restart on $backend', ({ backend, available }) => {
  it.skipIf(!available)(
    'a trigger pending when the server stopped fires once after it starts again',
    async () => {
      const database = await restartableServer(backend);
      try {
        const first = await database.start();
        const tenantId = await tenantIdOf(first.db, 'demo');
        const ran: string[] = [];
        first.app.scheduler.registerProcessor('test.restart', async (run) => {
          ran.push(`first:${run.runId}`);
        });
        const key = uniqueKey('restart');
        // Due a few seconds on: the first node stops well before, with the trigger waiting.
        await first.db.tenant(tenantId, (sql) =>
          scheduleOnce(sql, {
            tenantId,
            kind: 'test.restart',
            key,
            dueAt: new Date(Date.now() + 4_000),
          }),
        );
        await first.close();
        const second = await database.start();
        try {
          expect((await triggerOfKey(second.db, key))?.state).toBe('waiting');
          second.app.scheduler.registerProcessor('test.restart', async (run) => {
            ran.push(`second:${run.runId}`);
          });
          const [run] = await until(
            () => runsOfKey(second.db, key),
            (runs) => runs[0]?.state === 'succeeded',
            'the pending trigger ran after the restart',
          );
          expect(ran).toEqual([`second:${run!.id}`]);
          expect(run!.node).toBe(second.app.scheduler.node);
        } finally {
          await second.close();
        }
      } finally {
        await database.drop();
      }
    },
    180_000,
  );
});
