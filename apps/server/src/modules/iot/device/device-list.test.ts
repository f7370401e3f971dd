import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { createTestDevice, type TestDevice } from '../telemetry/telemetry-test-fixtures';

interface ListRow {
  id: string;
  alarmLevel: string | null;
  keyValues: Array<{ param: { key: string }; value: unknown; ts: string }> | null;
}

/** The device list's computed columns: the highest alarm wanting attention, and key values. */
describe.each(BACKENDS)('device list on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  let device: TestDevice;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    device = await createTestDevice(server.db, 'demo');
  });
  afterAll(async () => server?.close());

  const list = async (query: Record<string, string>): Promise<ListRow[]> => {
    const answer = await call(server, 'GET', '/api/iot/device/queryIotDevice', {
      token,
      query: { pageSize: '100', ...query },
    });
    expect(answer.status).toBe(200);
    return answer.body.data.list;
  };
  const alarm = (level: string, state: string, acknowledged: boolean) =>
    server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, started_at,
                                       state, acknowledged_at)
         VALUES ($1, $2, 'flow', $3, now(), $4, CASE WHEN $5 THEN now() END)`,
        [device.tenantId, device.deviceId, level, state, acknowledged],
      ),
    );

  it.skipIf(!available)('answers and filters the highest alarm wanting attention', async () => {
    const mine = async (query: Record<string, string> = {}) =>
      (await list({ deviceName: device.deviceNo.slice(3), ...query })).find(
        (row) => row.id === device.deviceId,
      );
    expect((await mine())?.alarmLevel).toBeNull();
    // Cleared and acknowledged: nothing left to look at.
    await alarm('red', 'cleared', true);
    // Cleared before anyone saw it, and one still open but acknowledged.
    await alarm('blue', 'cleared', false);
    await alarm('orange', 'open', true);
    expect((await mine())?.alarmLevel).toBe('orange');
    expect(await mine({ alarmLevel: 'orange' })).toBeDefined();
    expect(await mine({ alarmLevel: 'red' })).toBeUndefined();
    const reds = await list({ alarmLevel: 'red' });
    expect(reds.every((row) => row.alarmLevel === 'red')).toBe(true);
  });

  it.skipIf(!available)('answers the first measured values the device reported', async () => {
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_telemetry_latest (tenant_id, device_id, key, ts, value)
         VALUES ($1, $2, 'pressure', now(), 0.25), ($1, $2, 'valve', now(), 1)`,
        [device.tenantId, device.deviceId],
      ),
    );
    const row = (await list({})).find((candidate) => candidate.id === device.deviceId)!;
    // flow never reported; valve is an enum, not a measured value.
    expect(row.keyValues?.map((item) => [item.param.key, item.value])).toEqual([
      ['pressure', 0.25],
    ]);
  });

  it.skipIf(!available)(
    'a role that may list devices but not read telemetry or alarms gets neither through the list',
    async () => {
      // The device list, its CSV export and the device page, but not queryLatest (live values)
      // nor queryAlarmRecord (alarms): the computed columns must not hand those over.
      const { token: limited, roleId } = await noGrantUser(server, 'devlist');
      await server.db.system((sql) =>
        sql.query(
          `INSERT INTO sys_role_url (tenant_id, role_id, url_id)
           SELECT u.tenant_id, $1, u.id FROM sys_url u JOIN tenant t ON t.id = u.tenant_id
            WHERE t.tenant_code = 'demo' AND u.url = ANY ($2::text[])`,
          [
            roleId,
            [
              '/api/iot/device/queryIotDevice',
              '/api/iot/device/exportCsvIotDevice',
              '/api/iot/device/queryDeviceDetail',
              '/api/iot/device/updateIotDevice',
            ],
          ],
        ),
      );
      await alarm('red', 'open', false);
      const as = (method: 'GET' | 'POST', path: string, query: Record<string, string> = {}) =>
        call(server, method, path, { token: limited, query, lang: 'en' });
      const listed = await as('GET', '/api/iot/device/queryIotDevice', { pageSize: '100' });
      expect(listed.status).toBe(200);
      const row = (listed.body.data.list as ListRow[]).find((one) => one.id === device.deviceId)!;
      expect(row).toHaveProperty('deviceNo', device.deviceNo);
      expect(row).not.toHaveProperty('alarmLevel');
      expect(row).not.toHaveProperty('keyValues');
      // Nor can the alarm be probed by filtering: the filter is left out, not applied.
      const probed = await as('GET', '/api/iot/device/queryIotDevice', {
        pageSize: '100',
        alarmLevel: 'blue',
      });
      expect((probed.body.data.list as ListRow[]).some((one) => one.id === device.deviceId)).toBe(
        true,
      );
      const detail = await as('GET', '/api/iot/device/queryDeviceDetail', { id: device.deviceId });
      expect(detail.status).toBe(200);
      expect(detail.body.data.device).not.toHaveProperty('alarmLevel');
      expect(detail.body.data.device).not.toHaveProperty('keyValues');
      // Nor does the row a write answers.
      const updated = await call(server, 'PUT', '/api/iot/device/updateIotDevice', {
        token: limited,
        body: { id: device.deviceId, remark: 'checked' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toHaveProperty('deviceNo', device.deviceNo);
      expect(updated.body.data).not.toHaveProperty('alarmLevel');
      expect(updated.body.data).not.toHaveProperty('keyValues');
      const exported = await as('POST', '/api/iot/device/exportCsvIotDevice');
      expect(exported.status).toBe(200);
      expect(String(exported.body)).toContain(device.deviceNo);
      expect(String(exported.body).split('\n')[0]).not.toContain('Alarm');
      // The administrator still sees them.
      const admin = await call(server, 'POST', '/api/iot/device/exportCsvIotDevice', {
        token,
        lang: 'en',
      });
      expect(String(admin.body).split('\n')[0]).toContain('Alarm');
    },
  );
});
