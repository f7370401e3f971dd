import { entityCalls, iotDeviceEntity, TELEMETRY_CALLS } from '@shuili/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { TelemetryModule } from './telemetry.module';
import { localTime } from './telemetry-export';
import { createTestDevice, telemetryUplink, type TestDevice } from './telemetry-test-fixtures';
import { noGrantUser } from '@shuili/test-support/no-grant-user';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A simple RFC 4180 reader for the csv export (after its BOM). */
function parseCsv(text: string): string[][] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)]
        .filter((match) => match.index! < line.length || match[0] !== '')
        .map((match) => match[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')),
    );
}

async function sheetOf(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const width = sheet.getRow(1).cellCount;
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(
      Array.from({ length: width }, (_, c) => {
        const value = row.getCell(c + 1).value;
        return value === null || value === undefined ? '' : String(value);
      }),
    );
  });
  return rows;
}

async function download(
  server: TestServer,
  token: string,
  query: Record<string, string>,
  lang = 'en',
): Promise<{ status: number; type: string | null; body: Buffer }> {
  const url = new URL(TELEMETRY_CALLS.export, server.url);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, cookie: `language=${lang}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

describe.each(BACKENDS)('telemetry queries on $backend', ({ backend, available }) => {
  let server: TestServer;
  let telemetry: TelemetryModule;
  let token: string;
  let a: TestDevice;
  let b: TestDevice;
  // Whole hours in the past, so buckets and ranges are easy to reason about.
  const base = Math.floor((Date.now() - 3 * DAY) / HOUR) * HOUR;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    telemetry = server.app.telemetry;
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    a = await createTestDevice(server.db, 'demo');
    b = await createTestDevice(server.db, 'demo');
    // 48 hours of readings, one every 20 minutes, on two devices.
    const uplinks = [];
    for (let i = 0; i < 48 * 3; i += 1) {
      const ts = base + i * 20 * 60_000;
      uplinks.push(
        telemetryUplink(a, { ts, values: { flow: i, pressure: (i % 7) / 10, note: `a${i}` } }),
        telemetryUplink(b, { ts, values: { flow: 1000 - i, running: i % 2 === 0 } }),
      );
    }
    await Promise.all(uplinks.map((uplink) => telemetry.ingest.handle(uplink)));
  });
  afterAll(async () => server?.close());

  const get = (path: string, query: Record<string, string>, lang?: string, auth = token) =>
    call(server, 'GET', path, { token: auth, query, lang });

  it.skipIf(!available)('latest lists every property of the thing model', async () => {
    const { status, body } = await get(TELEMETRY_CALLS.latest, { deviceId: a.deviceId });
    expect(status).toBe(200);
    const byKey = Object.fromEntries(body.data.map((item: { key: string }) => [item.key, item]));
    expect(Object.keys(byKey)).toEqual(['flow', 'pressure', 'valve', 'running', 'note']);
    const last = base + (48 * 3 - 1) * 20 * 60_000;
    expect(byKey.flow).toMatchObject({
      value: 143,
      unit: 'm³/h',
      ts: new Date(last).toISOString(),
      name: { en: 'Flow', zh: '流量', tw: '流量' },
    });
    expect(byKey.note).toMatchObject({ value: null, textValue: 'a143' });
    expect(byKey.valve).toMatchObject({ value: null, ts: null, type: 'enum' });
  });

  it.skipIf(!available)('history pages newest first without gaps or overlaps', async () => {
    const query = {
      deviceId: a.deviceId,
      keys: 'flow',
      start: new Date(base).toISOString(),
      end: String(base + 10 * HOUR),
      pageSize: '7',
    };
    const seen: number[] = [];
    let total = 0;
    for (let currentPage = 1; currentPage <= 5; currentPage += 1) {
      const { status, body } = await get(TELEMETRY_CALLS.history, {
        ...query,
        currentPage: String(currentPage),
      });
      expect(status).toBe(200);
      total = body.data.total;
      seen.push(...body.data.list.map((item: { value: number }) => item.value));
    }
    // 10 hours at 3 an hour, both ends included.
    expect(total).toBe(31);
    expect(seen).toEqual(Array.from({ length: 31 }, (_, i) => 30 - i));
  });

  it.skipIf(!available)(
    'aggregates equal the same GROUP BY computed directly, in the tenant time zone',
    async () => {
      const start = new Date(base).toISOString();
      const end = new Date(base + 47 * HOUR).toISOString();
      for (const bucket of ['hour', 'day'] as const) {
        const { status, body } = await get(TELEMETRY_CALLS.aggregate, {
          deviceIds: `${a.deviceId},${b.deviceId}`,
          keys: 'flow',
          start,
          end,
          bucket,
          fn: 'avg,min,max,sum,count',
        });
        expect(status).toBe(200);
        expect(body.data.timeZone).toBe('Asia/Shanghai');
        const direct = await server.db.system((sql) =>
          sql.query<{
            device_id: string;
            bucket: Date;
            avg: number;
            min: number;
            max: number;
            sum: number;
            count: number;
          }>(
            `SELECT device_id::text AS device_id,
                    date_trunc('${bucket}', ts AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai' AS bucket,
                    avg(value) AS avg, min(value) AS min, max(value) AS max, sum(value) AS sum,
                    count(*)::int AS count
               FROM iot_telemetry
              WHERE device_id IN ($1, $2) AND key = 'flow' AND ts BETWEEN $3 AND $4
              GROUP BY 1, 2 ORDER BY 2, 1`,
            [a.deviceId, b.deviceId, start, end],
          ),
        );
        expect(body.data.list.length).toBeGreaterThan(1);
        expect(body.data.list).toEqual(
          direct.rows.map((row) => ({
            deviceId: row.device_id,
            key: 'flow',
            bucket: row.bucket.toISOString(),
            avg: row.avg,
            min: row.min,
            max: row.max,
            sum: row.sum,
            count: row.count,
          })),
        );
        if (bucket === 'day')
          for (const item of body.data.list) expect(item.bucket).toMatch(/T16:00:00\.000Z$/);
      }
      // Only the functions asked for.
      const { body } = await get(TELEMETRY_CALLS.aggregate, {
        deviceIds: a.deviceId,
        keys: 'pressure',
        start,
        end,
        bucket: 'month',
        fn: 'max',
      });
      expect(Object.keys(body.data.list[0]).sort()).toEqual(['bucket', 'deviceId', 'key', 'max']);
      expect(
        body.data.list.reduce((m: number, item: { max: number }) => Math.max(m, item.max), 0),
      ).toBe(0.6);
    },
  );

  it.skipIf(!available)(
    'aggregates over a range cut inside hours: whole hours from the rollup, edges from the readings',
    async () => {
      const start = new Date(base + 7 * 60_000 + 13_000).toISOString();
      const end = new Date(base + 30 * HOUR + 13 * 60_000).toISOString();
      const { status, body } = await get(TELEMETRY_CALLS.aggregate, {
        deviceIds: `${a.deviceId},${b.deviceId}`,
        keys: 'flow',
        start,
        end,
        bucket: 'hour',
      });
      expect(status).toBe(200);
      const direct = await server.db.system((sql) =>
        sql.query(
          `SELECT device_id::text AS "deviceId", key, date_trunc('hour', ts) AS bucket,
                  avg(value) AS avg, min(value) AS min, max(value) AS max, sum(value) AS sum,
                  count(value)::int AS count
             FROM iot_telemetry
            WHERE device_id IN ($1, $2) AND key = 'flow' AND ts BETWEEN $3 AND $4
            GROUP BY device_id, key, 3 ORDER BY 3, device_id`,
          [a.deviceId, b.deviceId, start, end],
        ),
      );
      // The first hour lost its reading at :00, the last one keeps :00 only.
      expect(body.data.list[0]).toMatchObject({ deviceId: a.deviceId, count: 2 });
      expect(body.data.list.at(-1)).toMatchObject({ count: 1 });
      expect(body.data.list).toEqual(
        direct.rows.map((row) => ({ ...row, bucket: (row.bucket as Date).toISOString() })),
      );
    },
  );

  it.skipIf(!available)('bad ranges and keys are refused naming the field', async () => {
    const cases: Array<[string, Record<string, string>, string, RegExp]> = [
      [
        TELEMETRY_CALLS.history,
        { deviceId: a.deviceId, start: String(base + HOUR), end: String(base) },
        'end',
        /结束时间不能早于开始时间/,
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'flow',
          start: String(base),
          end: String(base + 3 * DAY),
          bucket: 'minute',
        },
        'end',
        /最多 2 天/,
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'flow,ghost',
          start: String(base),
          end: String(base + HOUR),
          bucket: 'hour',
        },
        'keys',
        /ghost 不是该设备的属性/,
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'note',
          start: String(base),
          end: String(base + HOUR),
          bucket: 'hour',
        },
        'keys',
        /note 是文本/,
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'flow',
          start: 'yesterday',
          end: String(base),
          bucket: 'hour',
        },
        'start',
        /开始时间/,
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'flow',
          start: String(base),
          end: String(base),
          bucket: 'week',
        },
        'bucket',
        /统计周期/,
      ],
      [TELEMETRY_CALLS.latest, { deviceId: '999999999' }, 'deviceId', /设备不存在/],
    ];
    for (const [path, query, field, message] of cases) {
      const { status, body } = await get(path, query, 'zh');
      expect(status, `${path} ${JSON.stringify(query)}`).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(body.errors?.[0]?.field).toBe(field);
      expect(body.message).toMatch(message);
    }
  });

  it.skipIf(!available)('exports readings and aggregates as xlsx and csv', async () => {
    const query = {
      deviceIds: a.deviceId,
      keys: 'flow,note',
      start: String(base),
      end: String(base + HOUR),
    };
    const xlsx = await download(server, token, { ...query, format: 'xlsx' });
    expect(xlsx.status).toBe(200);
    expect(xlsx.type).toMatch(/spreadsheetml/);
    const sheet = await sheetOf(xlsx.body);
    expect(sheet[0]).toEqual(['Time', 'Device', 'Property', 'Value', 'Unit']);
    // 4 instants (both ends included) x 2 keys, newest first.
    expect(sheet).toHaveLength(1 + 8);
    const newest = localTime(new Date(base + HOUR), 'Asia/Shanghai');
    expect(sheet.slice(1, 3).map((row) => [row[0], row[2], row[3], row[4]])).toEqual([
      [newest, 'Flow', '3', 'm³/h'],
      [newest, 'Note', 'a3', ''],
    ]);

    const csv = await download(
      server,
      token,
      { ...query, keys: 'flow', format: 'csv', bucket: 'hour', fn: 'sum,count' },
      'zh',
    );
    expect(csv.status).toBe(200);
    expect([...csv.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csv.body.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual(['时段起点', '设备', '属性', '累计', '读数个数', '单位']);
    expect(rows.slice(1).map((row) => [row[0], row[3], row[4]])).toEqual([
      [localTime(new Date(base), 'Asia/Shanghai'), '3', '3'],
      [localTime(new Date(base + HOUR), 'Asia/Shanghai'), '3', '1'],
    ]);
  });

  it.skipIf(!available)('the ingestion counters of a device', async () => {
    await telemetry.ingest.handle(telemetryUplink(a, { values: { flow: 5000, ghost: 1 } }));
    const { status, body } = await get(TELEMETRY_CALLS.ingestStat, { deviceId: a.deviceId });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      deviceId: a.deviceId,
      accepted: 48 * 3 * 3,
      unknownKeys: 1,
      outOfRange: 1,
      lastProblem: 'unknownKey: "ghost"',
    });
  });

  it.skipIf(!available)("acme cannot read demo's device telemetry", async () => {
    const acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    for (const [path, query] of [
      [TELEMETRY_CALLS.latest, { deviceId: a.deviceId }],
      [TELEMETRY_CALLS.ingestStat, { deviceId: a.deviceId }],
      [
        TELEMETRY_CALLS.history,
        { deviceId: a.deviceId, start: String(base), end: String(base + DAY) },
      ],
      [
        TELEMETRY_CALLS.aggregate,
        {
          deviceIds: a.deviceId,
          keys: 'flow',
          start: String(base),
          end: String(base + DAY),
          bucket: 'hour',
        },
      ],
    ] as const) {
      const { status, body } = await get(path, query, 'en', acme);
      expect(status, path).toBe(404);
      expect(JSON.stringify(body)).not.toContain('a143');
    }
    const exported = await download(server, acme, {
      deviceIds: a.deviceId,
      keys: 'flow',
      start: String(base),
      end: String(base + DAY),
      format: 'csv',
    });
    expect(exported.status).toBe(404);
    // Even SQL without a WHERE sees nothing of demo in acme's context.
    const rows = await server.db.tenant(await acmeId(server), (sql) =>
      sql.query('SELECT 1 FROM iot_telemetry WHERE device_id = $1', [a.deviceId]),
    );
    expect(rows.rows).toEqual([]);
  });

  it.skipIf(!available)('a role without the URL grant is refused', async () => {
    const { token: noGrant } = await noGrantUser(server, 'telemetry');
    const { status } = await get(TELEMETRY_CALLS.latest, { deviceId: a.deviceId }, 'en', noGrant);
    expect(status).toBe(403);
  });

  it.skipIf(!available)(
    'deleting a device deletes its telemetry, latest values and counters',
    async () => {
      const doomed = await createTestDevice(server.db, 'demo');
      await telemetry.ingest.handle(telemetryUplink(doomed, { values: { flow: 1, ghost: 2 } }));
      const left = () =>
        server.db.system(async (sql) => {
          const counts: number[] = [];
          // One after the other: a transaction runs one statement at a time.
          for (const table of ['iot_telemetry', 'iot_telemetry_latest', 'iot_ingest_stat']) {
            const { rows } = await sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM ${table} WHERE device_id = $1`,
              [doomed.deviceId],
            );
            counts.push(rows[0]!.n);
          }
          return counts;
        });
      expect(await left()).toEqual([1, 1, 1]);
      const deleted = await call(server, 'POST', entityCalls(iotDeviceEntity).delete, {
        token,
        query: { id: doomed.deviceId },
      });
      expect(deleted.status).toBe(200);
      expect(await left()).toEqual([0, 0, 0]);
    },
  );

  it.skipIf(!available)(
    'retention deletes expired rows per tenant and drops months no tenant keeps',
    async () => {
      const acme = await createTestDevice(server.db, 'acme');
      const now = Date.now();
      const ancient = now - 800 * DAY;
      await server.db.system(async (sql) => {
        await sql.query(
          `INSERT INTO sys_param (tenant_id, param_name, param_key, param_value)
           VALUES ($1, 'Telemetry retention', 'iot.retentionDays', '30')`,
          [acme.tenantId],
        );
        for (const device of [acme, a]) {
          for (const at of [ancient, now - 40 * DAY, now - 10 * DAY]) {
            await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [
              new Date(at).toISOString(),
            ]);
            await sql.query(
              `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value) VALUES ($1, $2, 'flow', $3, 1)`,
              [device.tenantId, device.deviceId, new Date(at).toISOString()],
            );
          }
        }
      });
      const result = await telemetry.sweeper.sweep();
      const month = new Date(ancient);
      expect(result.dropped).toContain(
        `iot_telemetry_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
      );
      const left = await server.db.system((sql) =>
        sql.query<{ device_id: string; ts: Date }>(
          `SELECT device_id::text AS device_id, ts FROM iot_telemetry
            WHERE device_id = ANY($1::bigint[]) AND ts < now() - interval '5 days' ORDER BY device_id, ts`,
          [[acme.deviceId, a.deviceId]],
        ),
      );
      const days = (device: TestDevice) =>
        left.rows
          .filter((row) => row.device_id === device.deviceId)
          .map((row) => Math.round((now - row.ts.getTime()) / DAY));
      expect(days(acme)).toEqual([10]);
      expect(days(a)).toEqual(expect.arrayContaining([40, 10]));
      expect(days(a)).not.toContain(800);
      // Ingestion still works after the sweep (its partition cache is not fooled).
      await telemetry.ingest.handle(telemetryUplink(a, { values: { flow: 9 } }));
    },
  );

  it.skipIf(!available)(
    'the hourly rollup stays the readings grouped by hour (first and last too) through resends, deletes and sweeps',
    async () => {
      // A QoS 1 resend of a stored reading is stored once and counted once.
      const resent = telemetryUplink(a, { ts: base, values: { flow: 0 } });
      await telemetry.ingest.handle(resent);
      await telemetry.ingest.handle(resent);
      // Sums are compared to 9 places: the rollup adds them in arrival order, batch by batch.
      const grouped = (from: 'raw' | 'rollup') =>
        server.db.system((sql) =>
          sql.query(
            from === 'raw'
              ? `SELECT tenant_id::text, device_id::text, key, date_trunc('hour', ts, 'UTC') AS hour,
                        count(value)::int AS n, round(sum(value)::numeric, 9)::text AS sum,
                        min(value) AS min, max(value) AS max,
                        min(ts) FILTER (WHERE value IS NOT NULL) AS first_ts,
                        (array_agg(value ORDER BY ts) FILTER (WHERE value IS NOT NULL))[1] AS first_value,
                        max(ts) FILTER (WHERE value IS NOT NULL) AS last_ts,
                        (array_agg(value ORDER BY ts DESC) FILTER (WHERE value IS NOT NULL))[1] AS last_value
                   FROM iot_telemetry GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`
              : `SELECT tenant_id::text, device_id::text, key, hour, n,
                        round(sum::numeric, 9)::text AS sum, min, max,
                        first_ts, first_value, last_ts, last_value
                   FROM iot_telemetry_hourly ORDER BY 1, 2, 3, 4`,
          ),
        );
      const raw = await grouped('raw');
      expect(raw.rows.length).toBeGreaterThan(48);
      expect((await grouped('rollup')).rows).toEqual(raw.rows);
      // Part of an hour deleted: the hour is counted again from what is left.
      await server.db.system((sql) =>
        sql.query(`DELETE FROM iot_telemetry WHERE device_id = $1 AND key = 'flow' AND ts < $2`, [
          b.deviceId,
          new Date(base + 20 * 60_000).toISOString(),
        ]),
      );
      expect((await grouped('rollup')).rows).toEqual((await grouped('raw')).rows);
    },
  );
});

async function acmeId(server: TestServer): Promise<string> {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ id: string }>(`SELECT id::text AS id FROM tenant WHERE tenant_code = 'acme'`),
  );
  return rows[0]!.id;
}
