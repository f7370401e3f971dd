import {
  alarmRecordEntity,
  entityCalls,
  IN_FILTER_MAX,
  iotCommandEntity,
  type DeviceKind,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { createKindDevice } from '../modules/monitor/report/report-test-fixtures';
import type { TestDevice } from '../modules/iot/telemetry/telemetry-test-fixtures';

/*
 * The entity kit's `in` search (`search: 'in'`: a comma list, `= ANY(...)`), on the computed
 * device kind of alarm records and commands: what the area screens' warnings and operation
 * records pass as their fixed filter (`deviceKind=irrigation_valve,pump_station`).
 */
describe.each(BACKENDS)('in filters on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  const devices = {} as Record<'valve' | 'pump' | 'weather', TestDevice>;
  const kinds: Record<keyof typeof devices, DeviceKind> = {
    valve: 'irrigation_valve',
    pump: 'pump_station',
    weather: 'weather_station',
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    for (const name of Object.keys(kinds) as Array<keyof typeof devices>)
      devices[name] = await createKindDevice(server.db, 'demo', kinds[name]);
    // One alarm and one command of each device, as the alarm and command services write them.
    await server.db.system(async (sql) => {
      for (const device of Object.values(devices)) {
        await sql.query(
          `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value,
             threshold, started_at, state)
           VALUES ($1, $2, 'flow', 'yellow', 12, 10, now(), 'open')`,
          [device.tenantId, device.deviceId],
        );
        await sql.query(
          `INSERT INTO iot_command (tenant_id, device_id, username, name, params, status,
             timeout_seconds, expires_at)
           VALUES ($1, $2, 'admin', 'ping', '{}', 'sent', 30, now() + interval '1 hour')`,
          [device.tenantId, device.deviceId],
        );
      }
    });
  });
  afterAll(async () => server?.close());

  const deviceIdsOf = async (path: string, query: Record<string, string>) => {
    const answer = await call(server, 'GET', path, {
      token,
      query: { pageSize: '500', ...query },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ours = new Set(Object.values(devices).map((device) => device.deviceId));
    return (answer.body.data.list as Array<{ deviceId: string; deviceKind: string }>)
      .filter((row) => ours.has(row.deviceId))
      .map((row) => `${row.deviceKind}:${row.deviceId}`)
      .sort();
  };
  const tagged = (...names: Array<keyof typeof devices>) =>
    names.map((name) => `${kinds[name]}:${devices[name].deviceId}`).sort();

  test('AlarmRecord: acknowledged or not, and a search of the device and factor', async () => {
    const query = entityCalls(alarmRecordEntity).query;
    await server.db.system((sql) =>
      sql.query(
        `UPDATE iot_alarm_record SET acknowledged_at = now(), acknowledged_by = 'admin'
          WHERE device_id = $1`,
        [devices.weather.deviceId],
      ),
    );
    expect(await deviceIdsOf(query, { acknowledged: 'true' })).toEqual(tagged('weather'));
    expect(await deviceIdsOf(query, { acknowledged: 'false' })).toEqual(tagged('valve', 'pump'));
    const suffix = devices.pump.deviceNo.replace(/^td-/, '');
    expect(await deviceIdsOf(query, { text: suffix.toUpperCase() })).toEqual(tagged('pump'));
    expect(await deviceIdsOf(query, { text: 'flow', deviceKind: 'irrigation_valve' })).toEqual(
      tagged('valve'),
    );
    expect(await deviceIdsOf(query, { text: '100%' })).toEqual([]);
  });

  for (const entity of [alarmRecordEntity, iotCommandEntity]) {
    const calls = entityCalls(entity);

    test(`${entity.name}: one kind, several kinds, and the rows carry their kind`, async () => {
      expect(await deviceIdsOf(calls.query, { deviceKind: 'pump_station' })).toEqual(
        tagged('pump'),
      );
      expect(
        await deviceIdsOf(calls.query, { deviceKind: 'irrigation_valve,weather_station' }),
      ).toEqual(tagged('valve', 'weather'));
      expect(await deviceIdsOf(calls.query, {})).toEqual(tagged('valve', 'pump', 'weather'));
      // Combined with another filter, and in the export's filter too.
      const csv = await call(server, 'POST', calls.exportCsv, {
        token,
        query: { deviceKind: 'pump_station' },
      });
      expect(csv.status).toBe(200);
      expect(String(csv.body)).toContain(devices.pump.deviceNo.replace(/^td-/, ''));
      expect(String(csv.body)).not.toContain(devices.valve.deviceNo.replace(/^td-/, ''));
    });

    test(`${entity.name}: a bad list is a 400 naming deviceKind`, async () => {
      for (const bad of [
        'pump station',
        'pump_station,,weather_station',
        'pump_station,',
        "x'; DROP TABLE iot_device; --",
        Array.from({ length: IN_FILTER_MAX + 1 }, (_, i) => `k${i}`).join(','),
      ]) {
        const answer = await call(server, 'GET', calls.query, {
          token,
          query: { deviceKind: bad },
          lang: 'zh',
        });
        expect(answer.status, bad).toBe(400);
        expect(answer.body.errors[0].field).toBe('deviceKind');
        expect(answer.body.errors[0].message).toContain('设备类型');
      }
    });
  }
});
