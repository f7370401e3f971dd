import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
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
});
