import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/*
 * The meters' days and months (migration 016): a counter's increases per day of the tenant's
 * time zone, kept by the trigger on iot_telemetry whatever order and grouping the readings come
 * in, resets counted from zero, two flushes of one meter at once counted once.
 */
describe.each(BACKENDS)('meter increases on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let tenantId: string;
  let device = 0;
  const suffix = crypto.randomBytes(3).toString('hex');

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend, config: { demoHistoryDays: 0 } });
    tenantId = await server.db.system(async (sql) => {
      const id = (
        await sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'acme'`)
      ).rows[0]!.id;
      // Days of UTC+1 (winter in Berlin): midnight there is 23:00 UTC.
      await sql.query(
        `INSERT INTO sys_param (tenant_id, param_name, param_key, param_value)
         VALUES ($1, 'Time zone', 'timeZone', 'Europe/Berlin')
         ON CONFLICT DO NOTHING`,
        [id],
      );
      await sql.query(`SELECT iot_telemetry_partition('2026-01-15T00:00:00Z')`);
      await sql.query(`SELECT iot_telemetry_partition('2026-02-15T00:00:00Z')`);
      return id;
    });
  });
  afterAll(async () => server?.close());

  /** A meter of its own (the trigger keys on device and key; no device row is needed). */
  const meter = () => String(900_000_000 + Number.parseInt(suffix, 16) * 10 + ++device);

  const store = (sql: Sql, deviceId: string, readings: Array<[number, number]>) =>
    sql.query(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
       SELECT $1, $2, 'cumulativeVolume', to_timestamp(r.ms / 1000.0), r.v
         FROM unnest($3::double precision[], $4::double precision[]) AS r(ms, v)
       ON CONFLICT DO NOTHING`,
      [tenantId, deviceId, readings.map((r) => r[0]), readings.map((r) => r[1])],
    );
  const storeNow = (deviceId: string, readings: Array<[number, number]>) =>
    server.db.system((sql) => store(sql, deviceId, readings));

  const days = async (deviceId: string) =>
    (
      await server.db.system((sql) =>
        sql.query<{ day: string; increase: number }>(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, increase FROM iot_meter_daily
            WHERE tenant_id = $1 AND device_id = $2 ORDER BY day`,
          [tenantId, deviceId],
        ),
      )
    ).rows.map((row) => [row.day, Math.round(row.increase * 1000) / 1000]);
  const months = async (deviceId: string) =>
    (
      await server.db.system((sql) =>
        sql.query<{ month: string; increase: number }>(
          `SELECT to_char(month, 'YYYY-MM-DD') AS month, increase FROM iot_meter_monthly
            WHERE tenant_id = $1 AND device_id = $2 ORDER BY month`,
          [tenantId, deviceId],
        ),
      )
    ).rows.map((row) => [row.month, Math.round(row.increase * 1000) / 1000]);

  /** 2026-01-31 22:30 UTC: 23:30 in Berlin, half an hour before February there. */
  const T = Date.UTC(2026, 0, 31, 22, 30);

  test('adds each step to the day of the tenant’s zone, a reset counted from zero', async () => {
    const id = meter();
    // The first reading has nothing before it.
    await storeNow(id, [[T, 100]]);
    expect(await days(id)).toEqual([]);
    // +5 on 31 January; at 23:10 UTC it is 1 February in Berlin: +10, then a reset to 2 (+2), +3.
    await storeNow(id, [
      [T + 20 * MINUTE, 105],
      [T + 40 * MINUTE, 115],
    ]);
    await storeNow(id, [[T + 60 * MINUTE, 2]]);
    await storeNow(id, [[T + 80 * MINUTE, 5]]);
    expect(await days(id)).toEqual([
      ['2026-01-31', 5],
      ['2026-02-01', 15],
    ]);
    expect(await months(id)).toEqual([
      ['2026-01-01', 5],
      ['2026-02-01', 15],
    ]);
    // A resend of a stored reading changes nothing.
    await storeNow(id, [[T + 80 * MINUTE, 5]]);
    expect(await days(id)).toEqual([
      ['2026-01-31', 5],
      ['2026-02-01', 15],
    ]);
  });

  test('counts a late reading where it belongs, the days after it again', async () => {
    const id = meter();
    await storeNow(id, [
      [T, 100],
      [T + 20 * MINUTE, 110],
      [T + 2 * HOUR, 130],
    ]);
    expect(await days(id)).toEqual([
      ['2026-01-31', 10],
      ['2026-02-01', 20],
    ]);
    // Between 110 and 130, on 31 January: a reset there (to 1) makes February's step 129.
    await storeNow(id, [[T + 25 * MINUTE, 1]]);
    expect(await days(id)).toEqual([
      ['2026-01-31', 11],
      ['2026-02-01', 129],
    ]);
    expect(await months(id)).toEqual([
      ['2026-01-01', 11],
      ['2026-02-01', 129],
    ]);
    // Readings after it still step from the newest.
    await storeNow(id, [[T + 3 * HOUR, 140]]);
    expect((await days(id)).at(-1)).toEqual(['2026-02-01', 139]);
  });

  it.skipIf(!available || backend !== 'postgres')(
    'counts two flushes of one meter at once once (the later waits for the earlier)',
    async () => {
      const id = meter();
      await storeNow(id, [[T, 100]]);
      // The first flush holds its transaction open after storing 110; the second stores 150
      // meanwhile. Without the meter's lock the second would step from 100 as well.
      const first = server.db.system(async (sql) => {
        await store(sql, id, [[T + 10 * MINUTE, 110]]);
        await sql.query('SELECT pg_sleep(1)');
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = storeNow(id, [[T + 20 * MINUTE, 150]]);
      await Promise.all([first, second]);
      expect(await days(id)).toEqual([['2026-01-31', 50]]);
    },
  );

  test('leaves other keys alone', async () => {
    const id = meter();
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
         VALUES ($1, $2, 'flow', $3, 10), ($1, $2, 'flow', $4, 20)`,
        [tenantId, id, new Date(T).toISOString(), new Date(T + MINUTE).toISOString()],
      ),
    );
    expect(await days(id)).toEqual([]);
  });
});
