import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { DeviceDirectory } from '../device/device-directory';
import type { StoredRow } from './ingest.repo';
import type { IngestListener } from './ingest-listener';
import { IngestService } from './ingest.service';
import { RetentionSettings } from './telemetry-settings';
import { TelemetryWriter } from './telemetry-writer';
import type { Database } from '../../../db/database';
import { createTestDevice, telemetryUplink, type TestDevice } from './telemetry-test-fixtures';

const HOUR = 3_600_000;

describe.each(BACKENDS)('telemetry ingestion on $backend', ({ backend, available }) => {
  let server: TestServer;
  let ingest: IngestService;
  const heard: StoredRow[] = [];
  const listener: IngestListener = {
    onTelemetry: (batches) => {
      for (const batch of batches) heard.push(...batch.readings);
    },
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    ingest = new IngestService(
      {
        db: server.db,
        directory: new DeviceDirectory(server.db),
        retention: new RetentionSettings(server.db),
        listeners: [listener],
      },
      { flushMs: 5, batchRows: 500 },
    );
  });
  afterAll(async () => {
    await ingest?.close();
    await server?.close();
  });

  const rowsOf = (device: TestDevice) =>
    server.db.system(
      async (sql) =>
        (
          await sql.query<{
            key: string;
            ts: Date;
            value: number | null;
            text_value: string | null;
          }>(
            `SELECT key, ts, value, text_value FROM iot_telemetry
              WHERE tenant_id = $1 AND device_id = $2 ORDER BY ts, key`,
            [device.tenantId, device.deviceId],
          )
        ).rows,
    );
  const statOf = (device: TestDevice) =>
    server.db.system(
      async (sql) =>
        (
          await sql.query(
            `SELECT accepted::int, unknown_keys::int, wrong_type::int, out_of_range::int,
                    bad_payload::int, bad_time::int, last_problem
               FROM iot_ingest_stat WHERE tenant_id = $1 AND device_id = $2`,
            [device.tenantId, device.deviceId],
          )
        ).rows[0],
    );

  it.skipIf(!available)('N readings from many uplinks become exactly N rows', async () => {
    const device = await createTestDevice(server.db, 'demo');
    const base = Date.now() - 10 * HOUR;
    const uplinks = Array.from({ length: 60 }, (_, i) =>
      telemetryUplink(device, { ts: base + i * 1000, values: { flow: i, pressure: 0.5 } }),
    );
    // One array payload of 100 readings too (a device catching up).
    uplinks.push(
      telemetryUplink(
        device,
        Array.from({ length: 100 }, (_, i) => ({
          ts: base + 100_000 + i * 1000,
          values: { flow: 1.234567, running: true, valve: 1, note: `n${i}` },
        })),
      ),
    );
    await Promise.all(uplinks.map((uplink) => ingest.handle(uplink)));
    const rows = await rowsOf(device);
    expect(rows).toHaveLength(60 * 2 + 100 * 4);
    expect(rows.filter((row) => row.key === 'flow' && row.value === 1.23)).toHaveLength(100);
    expect(rows.find((row) => row.key === 'running')?.value).toBe(1);
    expect(rows.find((row) => row.key === 'note')?.text_value).toBe('n0');
    expect(await statOf(device)).toMatchObject({ accepted: 520, bad_payload: 0 });
    expect(heard.filter((point) => point.deviceId === device.deviceId)).toHaveLength(520);

    // A QoS 1 resend of a stored message (its PUBACK was lost) adds nothing.
    await ingest.handle(uplinks[0]!);
    expect(await rowsOf(device)).toHaveLength(520);
  });

  it.skipIf(!available)(
    'unknown keys, wrong types, out-of-range values, bad times and bad payloads are counted, not stored',
    async () => {
      const device = await createTestDevice(server.db, 'demo');
      const now = Date.now();
      await ingest.handle(
        telemetryUplink(device, {
          ts: now - 1000,
          values: { flow: 10, ghost: 1, pressure: 'high', valve: 7, running: 'yes' },
        }),
      );
      await ingest.handle(telemetryUplink(device, { ts: now, values: { flow: -1, note: 3 } }));
      await ingest.handle(telemetryUplink(device, Buffer.from('not json {')));
      await ingest.handle(telemetryUplink(device, { values: 'flat' }));
      await ingest.handle(telemetryUplink(device, Buffer.alloc(70 * 1024, 32)));
      // Older than the retention (365 days) and more than a day ahead: a wrong clock.
      await ingest.handle(
        telemetryUplink(device, { ts: now - 400 * 24 * HOUR, values: { flow: 1 } }),
      );
      await ingest.handle(telemetryUplink(device, { ts: now + 48 * HOUR, values: { flow: 1 } }));
      await ingest.handle(telemetryUplink(device, { values: { flow: 2 } }, now, 'event'));

      const rows = await rowsOf(device);
      expect(rows.map((row) => [row.key, row.value])).toEqual([['flow', 10]]);
      expect(await statOf(device)).toEqual({
        accepted: 1,
        unknown_keys: 1,
        wrong_type: 3,
        out_of_range: 2,
        bad_payload: 4,
        bad_time: 2,
        last_problem: 'badPayload: wrong shape at key',
      });
    },
  );

  it.skipIf(!available)('a mixed batch across tenants lands in the right tenants', async () => {
    const demo = await createTestDevice(server.db, 'demo');
    const acme = await createTestDevice(server.db, 'acme');
    const ts = Date.now() - HOUR;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ingest.handle(
          telemetryUplink(i % 2 ? acme : demo, { ts: ts + i, values: { flow: i % 2 ? 200 : 100 } }),
        ),
      ),
    );
    for (const [device, flow] of [
      [demo, 100],
      [acme, 200],
    ] as const) {
      const seen = await server.db.tenant(
        device.tenantId,
        async (sql) =>
          (
            await sql.query<{ device_id: string; value: number }>(
              'SELECT device_id::text AS device_id, value FROM iot_telemetry WHERE device_id IN ($1, $2)',
              [demo.deviceId, acme.deviceId],
            )
          ).rows,
      );
      expect(seen).toHaveLength(10);
      expect(seen.every((row) => row.device_id === device.deviceId && row.value === flow)).toBe(
        true,
      );
    }
  });

  it.skipIf(!available)('the latest value only moves forward', async () => {
    const device = await createTestDevice(server.db, 'demo');
    const now = Date.now();
    await ingest.handle(telemetryUplink(device, { ts: now - 1000, values: { flow: 5 } }));
    await ingest.handle(telemetryUplink(device, { ts: now - 5000, values: { flow: 1 } }));
    // In one batch, out of order: the newest wins.
    await Promise.all([
      ingest.handle(telemetryUplink(device, { ts: now - 100, values: { flow: 7 } })),
      ingest.handle(telemetryUplink(device, { ts: now - 200, values: { flow: 6 } })),
    ]);
    const latest = await server.db.system((sql) =>
      sql.query<{ value: number; ts: Date }>(
        'SELECT value, ts FROM iot_telemetry_latest WHERE tenant_id = $1 AND device_id = $2',
        [device.tenantId, device.deviceId],
      ),
    );
    expect(latest.rows).toEqual([{ value: 7, ts: new Date(now - 100) }]);
  });

  it.skipIf(!available)(
    'a reading outside the prepared months gets its partition on demand, under RLS',
    async () => {
      const device = await createTestDevice(server.db, 'demo');
      const old = Date.now() - 200 * 24 * HOUR;
      await ingest.handle(telemetryUplink(device, { ts: old, values: { flow: 3 } }));
      const partitions = await server.db.system((sql) =>
        sql.query<{ relname: string; rls: boolean }>(
          `SELECT c.relname, c.relrowsecurity AS rls FROM pg_inherits i
             JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'iot_telemetry'::regclass`,
        ),
      );
      const month = new Date(old);
      const name = `iot_telemetry_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
      expect(partitions.rows).toContainEqual({ relname: name, rls: true });
      expect(await rowsOf(device)).toHaveLength(1);
    },
  );

  it.skipIf(!available)(
    'status, telemetry and events keep online and last_seen; listeners hear of them',
    async () => {
      const device = await createTestDevice(server.db, 'demo');
      const events: string[] = [];
      const presence: boolean[] = [];
      const own = new IngestService(
        {
          db: server.db,
          directory: new DeviceDirectory(server.db),
          retention: new RetentionSettings(server.db),
          listeners: [
            {
              onEvent: (event) => {
                events.push(event.key);
              },
              onPresence: (change) => {
                presence.push(change.online);
              },
            },
          ],
        },
        { flushMs: 1 },
      );
      const stateOf = async () =>
        (
          await server.db.system((sql) =>
            sql.query<{ online: boolean; last_seen: Date | null }>(
              'SELECT online, last_seen FROM iot_device WHERE id = $1',
              [device.deviceId],
            ),
          )
        ).rows[0]!;
      const at = Date.now();
      await own.handle(telemetryUplink(device, { online: true }, at, 'status'));
      expect(await stateOf()).toEqual({ online: true, last_seen: new Date(at) });
      await own.handle(
        telemetryUplink(device, { key: 'overcurrent', params: { amps: 30 } }, at + 1, 'event'),
      );
      await own.handle(telemetryUplink(device, { key: 'mystery' }, at + 2, 'event'));
      await own.handle(telemetryUplink(device, { online: false }, at + 3, 'status'));
      expect(await stateOf()).toEqual({ online: false, last_seen: new Date(at + 3) });
      // A reading from a device believed offline brings it back online.
      await own.handle(telemetryUplink(device, { values: { flow: 1 } }, at + 4));
      expect((await stateOf()).online).toBe(true);
      await own.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual(['overcurrent']);
      // Only the device's own status is announced (it has subscribed to its commands by then).
      expect(presence).toEqual([true, false]);
      expect(await statOf(device)).toMatchObject({
        unknown_keys: 1,
        last_problem: expect.stringMatching(/mystery/),
      });
    },
  );

  it.skipIf(!available)(
    'two nodes: a status reaching a node whose memory says "unchanged" is still written',
    async () => {
      // Behind a load balancer a device's status messages reach any node: each node's memory of
      // the device's presence is its own, and may be older than the table.
      const device = await createTestDevice(server.db, 'demo');
      const node = () =>
        new IngestService(
          {
            db: server.db,
            directory: new DeviceDirectory(server.db),
            retention: new RetentionSettings(server.db),
            listeners: [],
          },
          { flushMs: 1 },
        );
      const [first, second] = [node(), node()];
      const onlineNow = async () =>
        (
          await server.db.systemStatement<{ online: boolean }>(
            'SELECT online FROM iot_device WHERE id = $1',
            [device.deviceId],
          )
        ).rows[0]!.online;
      const at = Date.now();
      await first.handle(telemetryUplink(device, { online: true }, at, 'status'));
      await second.handle(telemetryUplink(device, { online: false }, at + 1, 'status'));
      expect(await onlineNow()).toBe(false);
      // The first node last knew it online: the reconnection must not look like nothing new.
      await first.handle(telemetryUplink(device, { online: true }, at + 2, 'status'));
      expect(await onlineNow()).toBe(true);
      await second.handle(telemetryUplink(device, { online: false }, at + 3, 'status'));
      await first.presence(device.tenantCode, device.deviceNo, true, new Date(at + 4));
      expect(await onlineNow()).toBe(true);
      await first.close();
      await second.close();
    },
  );

  it.skipIf(!available)('a failed flush rejects the uplinks it carried', async () => {
    const device = await createTestDevice(server.db, 'demo');
    const own = new IngestService(
      {
        db: server.db,
        directory: new DeviceDirectory(server.db),
        retention: new RetentionSettings(server.db),
        listeners: [],
      },
      { flushMs: 1 },
    );
    // Warm the directory and settings, then make the table refuse writes.
    await own.handle(telemetryUplink(device, { values: { flow: 1 } }));
    await server.db.system((sql) =>
      sql.query(
        'ALTER TABLE iot_ingest_stat ADD CONSTRAINT ingest_test_refuse CHECK (accepted < 0) NOT VALID',
      ),
    );
    try {
      await expect(
        own.handle(telemetryUplink(device, { ts: Date.now() + 1, values: { flow: 2 } })),
      ).rejects.toThrow(/ingest_test_refuse/);
    } finally {
      await server.db.system((sql) =>
        sql.query('ALTER TABLE iot_ingest_stat DROP CONSTRAINT ingest_test_refuse'),
      );
    }
    // Nothing of the failed flush stayed behind.
    expect(await rowsOf(device)).toHaveLength(1);
    await own.close();
  });

  it.skipIf(!available)(
    'a full queue makes writers wait instead of growing (back-pressure)',
    async () => {
      const device = await createTestDevice(server.db, 'demo');
      // The real database behind a gate, so the first flush is still running when we look.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const gated: Database = {
        ...server.db,
        system: async (work) => {
          await gate;
          return server.db.system(work);
        },
        // The writer takes its own lane: the gated one.
        lane: () => gated,
      };
      // One flush at a time (PostgreSQL would run two), so the order below is the queue's.
      const writer = new TelemetryWriter(gated, {
        batchRows: 10,
        maxQueuedRows: 10,
        flushMs: 1,
        concurrency: 1,
      });
      const rowsAt = (first: number) =>
        Array.from({ length: 10 }, (_, i) => ({
          tenantId: device.tenantId,
          deviceId: device.deviceId,
          key: 'flow',
          ts: new Date(Date.now() - 60_000 + first + i),
          value: i,
          textValue: null,
        }));
      const settled: string[] = [];
      const first = writer.write({ rows: rowsAt(0) }).then(() => settled.push('first'));
      const second = writer.write({ rows: rowsAt(10) }).then(() => settled.push('second'));
      const third = writer.write({ rows: rowsAt(20) }).then(() => settled.push('third'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The first batch is in its flush, the second queued, the third waits outside.
      expect(writer.queuedRows).toBe(10);
      expect(settled).toEqual([]);
      open();
      await Promise.all([first, second, third]);
      expect(settled).toEqual(['first', 'second', 'third']);
      expect(await rowsOf(device)).toHaveLength(30);
      await writer.close();
    },
  );
});
