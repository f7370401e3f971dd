import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import {
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
} from '@shuili/test-support/test-server';
import { DatabaseBusyError } from './pg-errors';

/*
 * A node whose request pool stays full (slow requests, a starved CPU) is busy, not cut off from
 * its database: requests that cannot get a connection in time answer 503 "busy" with a short
 * Retry-After, /api/health still says the database is up, and telemetry, which devices wait to
 * have acknowledged, is stored on connections of its own meanwhile.
 */
describe.skipIf(!TEST_DATABASE_URL)('a PostgreSQL pool kept busy', () => {
  let server: TestServer;
  let token: string;
  let releaseHeld = () => {};
  const held: Promise<unknown>[] = [];
  /** What the first transaction that found no free connection was answered. */
  let refused: Promise<unknown>;

  beforeAll(async () => {
    server = await startTestServer({ backend: 'postgres' });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    // Request connections taken one by one and kept, until one does not come within a second.
    const release = new Promise<void>((resolve) => (releaseHeld = resolve));
    for (;;) {
      let gotIn = () => {};
      const entered = new Promise<boolean>((resolve) => (gotIn = () => resolve(true)));
      const hold = server.db.system(async () => {
        gotIn();
        await release;
      });
      const full = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000));
      if (await Promise.race([entered, full])) {
        held.push(hold);
        continue;
      }
      refused = hold.then(
        () => 'a connection after all',
        (error: unknown) => error,
      );
      break;
    }
  }, 30_000);
  afterAll(async () => {
    releaseHeld();
    await Promise.all(held);
    await server?.close();
  });

  it('answers 503 busy, translated, and says the database is up', async () => {
    const [busy, health] = await Promise.all([
      call(server, 'GET', '/api/admin/sysuser/querySysUser', { token, lang: 'zh' }),
      // Asked after the busy request is queued: the ping does not queue behind it.
      new Promise((resolve) => setTimeout(resolve, 100)).then(() =>
        call(server, 'GET', '/api/health'),
      ),
    ]);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(busy.body).toMatchObject({ code: 503, message: '服务器繁忙，请稍后重试', data: null });
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'up', database: 'up', databaseOutages: 0 });
  }, 20_000);

  it('refuses a transaction that waited too long as busy, and stores on a lane meanwhile', async () => {
    expect(held.length).toBeGreaterThan(0);
    expect(await refused).toBeInstanceOf(DatabaseBusyError);
    const lane = server.db.lane('telemetry', 1);
    const { rows } = await lane.system((sql) =>
      sql.query<{ answer: number }>('SELECT 42 AS answer'),
    );
    expect(rows[0]!.answer).toBe(42);
  }, 20_000);
});
