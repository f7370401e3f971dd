import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { StoredRow } from './ingest.repo';
import { createTestDevice, type TestDevice } from './telemetry-test-fixtures';
import { TelemetryWriter } from './telemetry-writer';

describe.each(BACKENDS)('telemetry writer under load on $backend', ({ backend, available }) => {
  let server: TestServer;
  let device: TestDevice;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    device = await createTestDevice(server.db, 'demo');
  });
  afterAll(async () => server?.close());

  const reading = (at: number, value: number): StoredRow => ({
    tenantId: device.tenantId,
    deviceId: device.deviceId,
    key: 'waterLevel',
    ts: new Date(at),
    value,
    textValue: null,
  });
  const stored = () =>
    server.db.system(async (sql) => {
      const count = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM iot_telemetry WHERE device_id = $1',
        [device.deviceId],
      );
      const latest = await sql.query<{ value: number }>(
        `SELECT value FROM iot_telemetry_latest WHERE device_id = $1 AND key = 'waterLevel'`,
        [device.deviceId],
      );
      const stat = await sql.query<{ accepted: string }>(
        'SELECT accepted::text FROM iot_ingest_stat WHERE device_id = $1',
        [device.deviceId],
      );
      return {
        rows: count.rows[0]!.n,
        latest: latest.rows[0]?.value,
        accepted: Number(stat.rows[0]?.accepted ?? 0),
      };
    });

  it.skipIf(!available)(
    'defers latest values and counters behind a backlog, then writes them merged, newest first',
    async () => {
      // The first 10 flush as soon as they are queued (nothing behind them: state written too);
      // the next 10 flush with 5 queued behind them, so their state is deferred; the last 5 wait
      // for the (long) flush timer until close writes them and all the state.
      const writer = new TelemetryWriter(server.db, {
        batchRows: 10,
        flushMs: 60_000,
        stateFlushMs: 60_000,
        concurrency: 1,
      });
      const start = Date.now() - 60_000;
      const stat = (i: number) => ({
        tenantId: device.tenantId,
        deviceId: device.deviceId,
        accepted: 1,
        unknownKeys: 0,
        wrongType: 0,
        outOfRange: 0,
        badPayload: 0,
        badTime: 0,
        lastProblem: null,
        lastProblemAt: null,
        lastAcceptedAt: new Date(start + i),
      });
      const writes = Array.from({ length: 25 }, (_, i) =>
        writer.write({ rows: [reading(start + i, i)], stat: stat(i) }),
      );
      await Promise.all(writes.slice(0, 20));
      // Every acknowledged reading is stored at once; the derived state waits.
      expect(await stored()).toEqual({ rows: 20, latest: 9, accepted: 10 });

      await writer.close();
      expect(await stored()).toEqual({ rows: 25, latest: 24, accepted: 25 });
    },
  );

  it.skipIf(!available)('drops the state of a failed batch with its rows', async () => {
    const writer = new TelemetryWriter(server.db, { batchRows: 10, flushMs: 1 });
    const before = await stored();
    // A row the database refuses (a tenant id beyond bigint) fails the whole batch: nothing of it may remain, not even
    // the latest value of the good reading beside it.
    const good = writer.write({ rows: [reading(Date.now() - 1000, 42)] });
    const bad = writer.write({
      rows: [{ ...reading(Date.now() - 999, 43), tenantId: '99999999999999999999' }],
    });
    await expect(good).rejects.toThrow();
    await expect(bad).rejects.toThrow();
    await writer.close();
    expect(await stored()).toEqual(before);
  });
});
