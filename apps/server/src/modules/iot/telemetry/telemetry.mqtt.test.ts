import { deviceIdentity, deviceTopic, TELEMETRY_CALLS } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, connectClient, issueSecret, tcpUrl } from '../../../mqtt/mqtt-test-clients';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { createTestDevice, type TestDevice } from './telemetry-test-fixtures';

describe.each(BACKENDS)('telemetry over MQTT on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  let device: TestDevice;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    device = await createTestDevice(server.db, 'demo');
    const { secret } = await issueSecret(server, token, device.deviceId);
    const identity = deviceIdentity(device.tenantCode, device.deviceNo);
    client = await connectClient(tcpUrl(server), {
      clientId: identity,
      username: identity,
      password: secret,
    });
  });
  afterAll(async () => {
    await client?.endAsync();
    await server?.close();
  });

  it.skipIf(!available)('each QoS 1 reading is stored by the time its PUBACK arrives', async () => {
    const topic = deviceTopic(device.tenantCode, device.deviceNo, 'telemetry');
    const start = Date.now() - 60_000;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        client!.publishAsync(
          topic,
          JSON.stringify({ ts: start + i * 1000, values: { flow: i, pressure: 1.5 } }),
          { qos: 1 },
        ),
      ),
    );
    // No waiting: acknowledged means committed.
    const stored = await server.db.system((sql) =>
      sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM iot_telemetry WHERE tenant_id = $1 AND device_id = $2',
        [device.tenantId, device.deviceId],
      ),
    );
    expect(stored.rows[0]!.n).toBe(60);

    await client!.publishAsync(
      deviceTopic(device.tenantCode, device.deviceNo, 'status'),
      JSON.stringify({ online: true }),
      { qos: 1, retain: true },
    );
    const latest = await call(server, 'GET', TELEMETRY_CALLS.latest, {
      token,
      query: { deviceId: device.deviceId },
    });
    expect(latest.body.data.find((item: { key: string }) => item.key === 'flow').value).toBe(29);
    const state = await server.db.system((sql) =>
      sql.query<{ online: boolean; last_seen: Date | null }>(
        'SELECT online, last_seen FROM iot_device WHERE id = $1',
        [device.deviceId],
      ),
    );
    expect(state.rows[0]!.online).toBe(true);
    expect(state.rows[0]!.last_seen).not.toBeNull();
  });

  it.skipIf(!available)('a bad payload is acknowledged and counted, not lost', async () => {
    await client!.publishAsync(
      deviceTopic(device.tenantCode, device.deviceNo, 'telemetry'),
      'flow=3',
      { qos: 1 },
    );
    const stat = await call(server, 'GET', TELEMETRY_CALLS.ingestStat, {
      token,
      query: { deviceId: device.deviceId },
    });
    expect(stat.body.data).toMatchObject({ badPayload: 1, lastProblem: 'badPayload: not JSON' });
  });
});
