import {
  MONITOR_THRESHOLD_CALLS,
  type AreaThreshold,
  type FactorThreshold,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { addDemoUser } from '../../../security/demo-user';
import { eventually } from '../../iot/command/control-test-kit';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createKindDevice, createZone } from '../report/report-test-fixtures';

interface StoredRule {
  kind: string;
  level: string;
  low: number | null;
  high: number | null;
  hysteresis: number | null;
  no_data_minutes: number | null;
  device_id: string | null;
  status: number;
}

/*
 * Monitor configuration thresholds (queryAreaThreshold, saveAreaThreshold): one factor's warning
 * (yellow) and danger (red) rules, hysteresis and no-data rule saved together as the area's
 * alarm rules; a reading past a saved threshold raises its alarm; bad input writes nothing.
 */
describe.each(BACKENDS)('area thresholds on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let pump: TestDevice;
  let weather: TestDevice;
  let zoneA: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    pump = await createKindDevice(server.db, 'demo', 'pump_station');
    weather = await createKindDevice(server.db, 'demo', 'weather_station');
    zoneA = await createZone(server.db, pump.tenantId, `Threshold zone ${backend}`);
  });
  afterAll(async () => server?.close());

  const save = (body: Record<string, unknown>, as = token) =>
    call(server, 'POST', MONITOR_THRESHOLD_CALLS.save, {
      token: as,
      body: { area: 'pumpStation', productId: pump.productId, propertyKey: 'flow', ...body },
    });
  const rulesOf = async (key = 'flow', device: string | null = null) =>
    (
      await server.db.system((sql) =>
        sql.query<StoredRule>(
          `SELECT kind, level, low, high, hysteresis, no_data_minutes, device_id::text, status
             FROM iot_alarm_rule
            WHERE product_id = $1 AND property_key = $2
              AND device_id IS NOT DISTINCT FROM $3::bigint
            ORDER BY id`,
          [pump.productId, key, device],
        ),
      )
    ).rows;
  const alarmsOf = (device: TestDevice) =>
    server.db.system(
      async (sql) =>
        (
          await sql.query<{ level: string; state: string; value: number; threshold: number }>(
            `SELECT level, state, value, threshold FROM iot_alarm_record
              WHERE device_id = $1 ORDER BY id`,
            [device.deviceId],
          )
        ).rows,
    );

  test('the area products and their numeric factors, none set yet', async () => {
    const answer = await call(server, 'GET', MONITOR_THRESHOLD_CALLS.query, {
      token,
      query: { area: 'pumpStation', productId: pump.productId },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data as AreaThreshold;
    expect(data.products.map((product) => product.id)).toContain(pump.productId);
    expect(data.products.map((product) => product.id)).not.toContain(weather.productId);
    expect(data.products.every((product) => product.deviceKind === 'pump_station')).toBe(true);
    expect(data.factors.map((factor) => factor.key)).toEqual([
      'flow',
      'cumulativeVolume',
      'rainfall',
      'pressure',
    ]);
    expect(data.factors[0]).toMatchObject({ warning: null, danger: null, noData: null });
  });

  test('a saved threshold is two rules and a no-data rule; readings past it raise alarms', async () => {
    const saved = await save({
      warning: { kind: 'above', high: 100 },
      danger: { kind: 'above', high: 150 },
      hysteresis: 5,
      noDataMinutes: 30,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const factor = saved.body.data as FactorThreshold;
    expect(factor).toMatchObject({
      key: 'flow',
      warning: { kind: 'above', high: 100, low: null, enabled: true },
      danger: { kind: 'above', high: 150, low: null, enabled: true },
      hysteresis: 5,
      noData: { minutes: 30 },
    });
    expect(await rulesOf()).toEqual([
      expect.objectContaining({ kind: 'above', level: 'yellow', high: 100, hysteresis: 5 }),
      expect.objectContaining({ kind: 'above', level: 'red', high: 150, hysteresis: 5 }),
      expect.objectContaining({ kind: 'noData', level: 'yellow', no_data_minutes: 30 }),
    ]);

    const now = Date.now();
    await server.app.telemetry.ingest.handle(
      telemetryUplink(pump, { ts: now - 2000, values: { flow: 120 } }),
    );
    await eventually(
      () => alarmsOf(pump),
      (rows) => rows.some((row) => row.level === 'yellow' && row.state === 'open'),
      'the warning alarm',
    );
    await server.app.telemetry.ingest.handle(
      telemetryUplink(pump, { ts: now - 1000, values: { flow: 160 } }),
    );
    const raised = await eventually(
      () => alarmsOf(pump),
      (rows) => rows.some((row) => row.level === 'red' && row.state === 'open'),
      'the danger alarm',
    );
    expect(raised.find((row) => row.level === 'red')).toMatchObject({ value: 160, threshold: 150 });
  });

  test('saving again updates in place; a level left out is removed with its open alarm', async () => {
    const saved = await save({
      warning: { kind: 'above', high: 110 },
      danger: null,
      hysteresis: 5,
      noDataMinutes: null,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ danger: null, noData: null, warning: { high: 110 } });
    expect(await rulesOf()).toEqual([
      expect.objectContaining({ kind: 'above', level: 'yellow', high: 110 }),
    ]);
    // The danger rule's alarm has nothing left to clear it: it cleared with its rule.
    const alarms = await alarmsOf(pump);
    expect(alarms.filter((row) => row.level === 'red').map((row) => row.state)).toEqual([
      'cleared',
    ]);
  });

  test('bad input is a 400 naming the field, and nothing is written', async () => {
    const before = await rulesOf();
    const bad = async (body: Record<string, unknown>, field: string, status = 400) => {
      const answer = await save(body);
      expect(answer.status, `${field}: ${JSON.stringify(answer.body)}`).toBe(status);
      expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    };
    const both = { warning: { kind: 'above', high: 100 }, danger: { kind: 'above', high: 150 } };
    await bad({ ...both, warning: { kind: 'above' } }, 'warning.high');
    await bad({ ...both, danger: { kind: 'outside', high: 200 } }, 'danger.low');
    await bad({ ...both, danger: { kind: 'sideways', high: 200 } }, 'danger.kind');
    await bad({ ...both, danger: { kind: 'above', high: 90 } }, 'danger.high');
    await bad(
      {
        warning: { kind: 'outside', low: 10, high: 90 },
        danger: { kind: 'outside', low: 20, high: 95 },
      },
      'danger.low',
    );
    await bad({ ...both, hysteresis: -1 }, 'hysteresis');
    await bad({ ...both, noDataMinutes: 0 }, 'noDataMinutes');
    await bad({ ...both, propertyKey: 'note' }, 'propertyKey');
    await bad({ ...both, productId: weather.productId }, 'productId');
    await bad({ ...both, area: 'nowhere' }, 'area');
    await bad({ ...both, deviceId: weather.deviceId }, 'deviceId');
    await bad({ ...both, deviceId: '999999999' }, 'deviceId', 404);
    expect(await rulesOf()).toEqual(before);
  });

  test('a device has thresholds of its own; a confined user reaches only their zone', async () => {
    const own = await save({
      deviceId: pump.deviceId,
      warning: { kind: 'below', low: 2 },
      danger: { kind: 'below', low: 1 },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(await rulesOf('flow', pump.deviceId)).toEqual([
      expect.objectContaining({ kind: 'below', level: 'yellow', low: 2, high: null }),
      expect.objectContaining({ kind: 'below', level: 'red', low: 1 }),
    ]);
    const read = await call(server, 'GET', MONITOR_THRESHOLD_CALLS.query, {
      token,
      query: { area: 'pumpStation', deviceId: pump.deviceId },
    });
    const flow = (read.body.data as AreaThreshold).factors.find((one) => one.key === 'flow')!;
    expect(read.body.data.productId).toBe(pump.productId);
    expect(flow.warning).toMatchObject({ kind: 'below', low: 2 });

    const confined = await addDemoUser(server, token, ['ROLE_ADMIN']);
    await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token,
      query: { userId: confined.id, zoneIds: zoneA },
    });
    const outside = await save(
      { deviceId: pump.deviceId, warning: { kind: 'below', low: 3 }, danger: null },
      confined.token,
    );
    expect(outside.status).toBe(404);
    expect(await rulesOf('flow', pump.deviceId)).toHaveLength(2);
  });
});
