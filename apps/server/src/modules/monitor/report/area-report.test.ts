import {
  areaReportSchema,
  MONITOR_REPORT_CALLS,
  REPORT_RAW_LIMIT,
  TELEMETRY_CALLS,
  type AreaReport,
  type ReportSeries,
} from '@shuili/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { addDemoUser } from '../../../security/demo-user';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createKindDevice, createZone } from './report-test-fixtures';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The demo tenant's zone (Asia/Shanghai) is 8 hours ahead of UTC all year. */
const SHANGHAI = 8 * HOUR;

/**
 * Known readings around a local midnight of the tenant (Asia/Shanghai): one a second before it,
 * the rest after; the volume counter resets twice (between readings, and inside one hour).
 */
const READINGS: Array<{ at: number; values: Record<string, number> }> = [
  { at: -1000, values: { flow: 50, cumulativeVolume: 100 } },
  { at: 0, values: { flow: 10, cumulativeVolume: 110, rainfall: 1.5 } },
  { at: 90 * MINUTE, values: { flow: 20, cumulativeVolume: 130 } },
  { at: 5 * HOUR, values: { flow: 30, cumulativeVolume: 5 } },
  { at: 26 * HOUR, values: { flow: 40, cumulativeVolume: 25, rainfall: 2 } },
  { at: 26 * HOUR + 20 * MINUTE, values: { cumulativeVolume: 2 } },
  { at: 26 * HOUR + 40 * MINUTE, values: { cumulativeVolume: 7 } },
  { at: 47 * HOUR + 59 * MINUTE, values: { flow: 60, cumulativeVolume: 40 } },
];

/*
 * The data report (GET /api/monitor/report/queryAreaReport, POST exportAreaReport): the values
 * of known readings per bucket and over the range, day buckets cut at the tenant's midnight,
 * counters totalled by their increase across resets, bad input as 400s naming the field, and a
 * zone-confined user kept to the devices of their zones.
 */
describe.each(BACKENDS)('area data report on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let pump: TestDevice;
  let otherZonePump: TestDevice;
  let weather: TestDevice;
  let zoneA: string;
  /** A local (Asia/Shanghai) midnight three days ago, as a UTC instant. */
  const midnight = Math.floor(Date.now() / DAY) * DAY - 3 * DAY - SHANGHAI;
  const iso = (offset: number) => new Date(midnight + offset).toISOString();

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const tenantId = await server.db.system(
      async (sql) =>
        (await sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`))
          .rows[0]!.id,
    );
    zoneA = await createZone(server.db, tenantId, `Report zone A ${backend}`);
    const zoneB = await createZone(server.db, tenantId, `Report zone B ${backend}`);
    pump = await createKindDevice(server.db, 'demo', 'pump_station', { zoneId: zoneA });
    otherZonePump = await createKindDevice(server.db, 'demo', 'pump_station', { zoneId: zoneB });
    weather = await createKindDevice(server.db, 'demo', 'weather_station', { zoneId: zoneA });
    for (const reading of READINGS)
      await server.app.telemetry.ingest.handle(
        telemetryUplink(pump, { ts: midnight + reading.at, values: reading.values }),
      );
    await server.app.telemetry.ingest.handle(
      telemetryUplink(otherZonePump, { ts: midnight, values: { flow: 1 } }),
    );
  });
  afterAll(async () => server?.close());

  const report = async (query: Record<string, string>, as = token) => {
    const answer = await call(server, 'GET', MONITOR_REPORT_CALLS.query, { token: as, query });
    // The route skips checking its answer against the schema (its size): the test does.
    if (answer.status === 200) areaReportSchema.parse(answer.body.data);
    return { status: answer.status, body: answer.body, data: answer.body.data as AreaReport };
  };
  const seriesOf = (data: AreaReport, key: string, deviceId = pump.deviceId): ReportSeries =>
    data.series.find((series) => series.deviceId === deviceId && series.key === key)!;
  const twoDays = () => ({
    area: 'pumpStation',
    deviceIds: pump.deviceId,
    keys: 'flow,cumulativeVolume,rainfall',
    start: iso(-HOUR),
    end: iso(2 * DAY - 1),
  });

  test('day buckets start at the tenant midnight; statistics are the readings', async () => {
    const { status, body, data } = await report({ ...twoDays(), bucket: 'day' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(data.timeZone).toBe('Asia/Shanghai');
    expect(data.factors.map((factor) => [factor.key, factor.total])).toEqual([
      ['flow', null],
      ['cumulativeVolume', 'increase'],
      // Rain is a total of the weather area, not of pump stations.
      ['rainfall', null],
    ]);
    const flow = seriesOf(data, 'flow');
    // The reading a second before midnight is the day before's.
    expect(flow.at).toEqual([midnight - DAY, midnight, midnight + DAY]);
    expect(flow.avg).toEqual([50, 20, 50]);
    expect(flow.min).toEqual([50, 10, 40]);
    expect(flow.max).toEqual([50, 30, 60]);
    expect(flow.count).toEqual([1, 3, 2]);
    expect(flow.total).toBeUndefined();
    expect(flow.stats).toEqual({ count: 6, min: 10, max: 60, mean: 35, total: null });

    // 100 → 110 → 130 → (reset) 5 → 25 → (reset inside the hour) 2 → 7 → 40.
    const volume = seriesOf(data, 'cumulativeVolume');
    expect(volume.at).toEqual([midnight - DAY, midnight, midnight + DAY]);
    expect(volume.total).toEqual([0, 35, 60]);
    expect(volume.stats).toEqual({ count: 8, min: 2, max: 130, mean: 419 / 8, total: 95 });
    expect(seriesOf(data, 'rainfall').stats).toMatchObject({ count: 2, total: null });
  });

  test('hours from the rollup and partial edge hours add up to the same increase', async () => {
    const { status, data } = await report({
      ...twoDays(),
      start: iso(-30 * MINUTE),
      end: iso(26 * HOUR + 30 * MINUTE),
      bucket: 'hour',
    });
    expect(status).toBe(200);
    const volume = seriesOf(data, 'cumulativeVolume');
    expect(volume.at).toEqual(
      [-HOUR, 0, HOUR, 5 * HOUR, 26 * HOUR].map((offset) => midnight + offset),
    );
    // 100 → 110 → 130 → 5 → 25 → 2 (7 lies past the end).
    expect(volume.total).toEqual([0, 10, 20, 5, 22]);
    expect(volume.stats.total).toBe(57);
    expect(volume.min).toEqual([100, 110, 130, 5, 2]);
  });

  test('raw answers the readings in time order with the same statistics', async () => {
    const { status, data } = await report({ ...twoDays(), bucket: 'raw' });
    expect(status).toBe(200);
    const volume = seriesOf(data, 'cumulativeVolume');
    expect(volume.at).toEqual(READINGS.map((reading) => midnight + reading.at));
    expect(volume.avg).toEqual([100, 110, 130, 5, 25, 2, 7, 40]);
    expect(volume.total).toBeUndefined();
    expect(volume.stats).toEqual({ count: 8, min: 2, max: 130, mean: 419 / 8, total: 95 });
  });

  test('across areas: the totals of any area apply, devices of every kind together', async () => {
    const { status, body, data } = await report({
      deviceIds: `${pump.deviceId},${weather.deviceId}`,
      keys: 'rainfall,flow',
      start: iso(-HOUR),
      end: iso(2 * DAY - 1),
      bucket: 'month',
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(data.factors.map((factor) => factor.total)).toEqual(['sum', null]);
    expect(seriesOf(data, 'rainfall').stats.total).toBe(3.5);
    // A device without readings still has its series, empty.
    expect(seriesOf(data, 'flow', weather.deviceId)).toMatchObject({
      at: [],
      stats: { count: 0, mean: null, total: null },
    });
  });

  test('a zone half an hour off UTC cuts days at its own midnight, from the readings', async () => {
    const acme = await createKindDevice(server.db, 'acme', 'pump_station');
    await server.db.system(async (sql) => {
      await sql.query(
        `UPDATE sys_param SET param_value = 'Asia/Kolkata' WHERE tenant_id = $1 AND param_key = 'timeZone'`,
        [acme.tenantId],
      );
      await sql.query(
        `INSERT INTO sys_param (tenant_id, param_name, param_key, param_value)
         SELECT $1, 'Time zone', 'timeZone', 'Asia/Kolkata'
          WHERE NOT EXISTS (SELECT 1 FROM sys_param WHERE tenant_id = $1 AND param_key = 'timeZone')`,
        [acme.tenantId],
      );
    });
    for (const reading of READINGS)
      await server.app.telemetry.ingest.handle(
        telemetryUplink(acme, { ts: midnight + reading.at, values: reading.values }),
      );
    const acmeToken = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const query = { ...twoDays(), deviceIds: acme.deviceId };
    const days = await report({ ...query, bucket: 'day' }, acmeToken);
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(days.data.timeZone).toBe('Asia/Kolkata');
    const volume = seriesOf(days.data, 'cumulativeVolume', acme.deviceId);
    const kolkata = 5.5 * HOUR;
    for (const at of volume.at) expect((at + kolkata) % DAY).toBe(0);
    // Shanghai's midnight is 21:30 in Kolkata: its day starts 2.5 hours later.
    expect(volume.count).toEqual([3, 3, 2]);
    expect(volume.total).toEqual([30, 27, 38]);
    expect(volume.stats).toEqual({ count: 8, min: 2, max: 130, mean: 419 / 8, total: 95 });
    const hours = await report({ ...query, bucket: 'hour' }, acmeToken);
    const hourly = seriesOf(hours.data, 'cumulativeVolume', acme.deviceId);
    for (const at of hourly.at) expect((at + kolkata) % HOUR).toBe(0);
    expect(hourly.total!.reduce((sum, value) => sum! + value!, 0)).toBe(95);
  });

  test('bad input: 400 naming the field', async () => {
    const bad = async (query: Record<string, string>, field: string) => {
      const answer = await report(query);
      expect(answer.status, `${field}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    };
    const day = { ...twoDays(), bucket: 'day' };
    await bad({ ...day, area: 'nowhere' }, 'area');
    await bad({ ...day, bucket: 'minute' }, 'bucket');
    await bad({ ...day, deviceIds: 'x' }, 'deviceIds');
    await bad({ ...day, keys: 'Flow' }, 'keys');
    await bad({ ...day, start: 'yesterday' }, 'start');
    await bad({ ...day, end: iso(-2 * HOUR) }, 'end');
    await bad({ ...day, bucket: 'raw', end: iso(40 * DAY) }, 'end');
    // A weather station is no pump station; a text property has no statistics.
    await bad({ ...day, deviceIds: `${pump.deviceId},${weather.deviceId}` }, 'deviceIds');
    await bad({ ...day, keys: 'flow,note' }, 'keys');
    await bad({ ...day, keys: 'flow,nothing' }, 'keys');
  });

  test('the report allows 200 series where the chart aggregate stops at 20', async () => {
    const many: TestDevice[] = [];
    for (let i = 0; i < 51; i += 1)
      many.push(await createKindDevice(server.db, 'demo', 'pump_station'));
    const ids = many.map((device) => device.deviceId);
    const query = {
      area: 'pumpStation',
      keys: 'flow,cumulativeVolume,rainfall',
      start: iso(-HOUR),
      end: iso(DAY),
      bucket: 'hour',
    };
    const fifty = await report({ ...query, deviceIds: ids.slice(0, 50).join(',') });
    expect(fifty.status, JSON.stringify(fifty.body)).toBe(200);
    expect(fifty.data.series).toHaveLength(150);
    // 51 devices × 4 factors: over the limit, refused as a whole.
    const over = await report({
      ...query,
      keys: 'flow,cumulativeVolume,rainfall,pressure',
      deviceIds: ids.join(','),
    });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].field).toBe('keys');
    const aggregate = await call(server, 'GET', TELEMETRY_CALLS.aggregate, {
      token,
      query: {
        deviceIds: ids.slice(0, 21).join(','),
        keys: 'flow',
        start: iso(-HOUR),
        end: iso(DAY),
        bucket: 'hour',
      },
    });
    expect(aggregate.status).toBe(400);
  });

  test('raw reports stop at the reading limit and ask for a bucket', async () => {
    const busy = await createKindDevice(server.db, 'demo', 'pump_station');
    await server.db.system(async (sql) => {
      for (const at of [iso(0), iso(DAY)])
        await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [at]);
      await sql.query(
        `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
         SELECT $1, $2, 'flow', $3::timestamptz + make_interval(secs => i), i % 100
           FROM generate_series(1, $4::int) AS i`,
        [busy.tenantId, busy.deviceId, iso(0), REPORT_RAW_LIMIT + 1],
      );
    });
    const query = {
      area: 'pumpStation',
      deviceIds: busy.deviceId,
      keys: 'flow',
      start: iso(0),
      end: iso(DAY),
    };
    const raw = await report({ ...query, bucket: 'raw' });
    expect(raw.status).toBe(400);
    expect(raw.body.errors[0].field).toBe('bucket');
    const hourly = await report({ ...query, bucket: 'hour' });
    expect(hourly.status).toBe(200);
    expect(seriesOf(hourly.data, 'flow', busy.deviceId).stats.count).toBe(REPORT_RAW_LIMIT + 1);
  });

  test('a zone-confined user reports the devices of their zone only', async () => {
    const confined = await addDemoUser(server, token, ['ROLE_ADMIN']);
    const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token,
      query: { userId: confined.id, zoneIds: zoneA },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const own = await report({ ...twoDays(), bucket: 'day' }, confined.token);
    expect(own.status).toBe(200);
    expect(seriesOf(own.data, 'flow').stats.count).toBe(6);
    const other = await report(
      { ...twoDays(), deviceIds: otherZonePump.deviceId, bucket: 'day' },
      confined.token,
    );
    expect(other.status).toBe(404);
    expect(other.body.errors[0].field).toBe('deviceIds');
    const both = await report(
      { ...twoDays(), deviceIds: `${pump.deviceId},${otherZonePump.deviceId}`, bucket: 'day' },
      confined.token,
    );
    expect(both.status).toBe(404);
  });

  test('the xlsx export has the statistics, then every bucket', async () => {
    const url = new URL(MONITOR_REPORT_CALLS.export, server.url);
    for (const [name, value] of Object.entries({ ...twoDays(), bucket: 'day', format: 'xlsx' }))
      url.searchParams.set(name, value);
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, cookie: 'language=zh' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      Buffer.from(await response.arrayBuffer()) as unknown as ExcelJS.Buffer,
    );
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      '时间',
      '设备',
      '属性',
      '平均值',
      '最小值',
      '最大值',
      '累计',
      '读数个数',
      '单位',
    ]);
    const volumeStats = rows.find((row) => row[0] === '统计' && row[2] === '累计水量')!;
    expect(volumeStats.slice(3, 8)).toEqual([419 / 8, 2, 130, 95, 8]);
    // 3 statistics rows, then 3 days of flow, of volume and 2 of rain.
    expect(rows).toHaveLength(1 + 3 + 3 + 3 + 2);
    const firstDay = rows.find((row) => row[2] === '累计水量' && row[0] !== '统计')!;
    // The day before the midnight, in the tenant's zone, as a person reads it.
    expect(String(firstDay[0])).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
  });
});
