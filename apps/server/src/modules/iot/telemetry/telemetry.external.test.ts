import crypto from 'node:crypto';
import { deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../../../mqtt/mqtt-test-clients';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { createTestDevice, type TestDevice } from './telemetry-test-fixtures';

/** The machine's Mosquitto (anonymous clients allowed), when the run names one. */
const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;

/** Polls until `probe` answers what `done` accepts, or fails after a generous deadline. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(BACKENDS)(
  'telemetry through an external broker (Mosquitto) on $backend',
  ({ backend, available }) => {
    const runs = available && Boolean(TEST_MQTT_URL);
    let server: TestServer;
    let device: TestDevice;
    let client: MqttClient | undefined;

    beforeAll(async () => {
      if (!runs) return;
      // A share group of its own: other servers of this test run consume the same broker.
      server = await startTestServer({
        backend,
        config: {
          mqttUrl: TEST_MQTT_URL,
          mqttShareGroup: `test${crypto.randomBytes(4).toString('hex')}`,
        },
      });
      device = await createTestDevice(server.db, 'demo');
      // Mosquitto here checks no credentials (its auth plugin would call /api/iot/mqtt/*).
      client = await connectClient(TEST_MQTT_URL!, {
        clientId: `${device.tenantCode}:${device.deviceNo}`,
      });
    });
    afterAll(async () => {
      await client?.endAsync();
      await server?.close();
    });

    const storedRows = () =>
      server.db.system(
        async (sql) =>
          (
            await sql.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM iot_telemetry WHERE tenant_id = $1 AND device_id = $2',
              [device.tenantId, device.deviceId],
            )
          ).rows[0]!.n,
      );

    it.skipIf(!runs)(
      'N QoS 1 messages relayed by Mosquitto give exactly N stored readings',
      async () => {
        const topic = deviceTopic(device.tenantCode, device.deviceNo, 'telemetry');
        const start = Date.now() - 60_000;
        const messages = 200;
        await Promise.all(
          Array.from({ length: messages }, (_, i) =>
            client!.publishAsync(
              topic,
              JSON.stringify({ ts: start + i * 100, values: { flow: i, pressure: 1.5 } }),
              { qos: 1 },
            ),
          ),
        );
        // Mosquitto acknowledged the device; the server stores what its shared subscription gets.
        expect(await eventually(storedRows, (n) => n >= messages * 2)).toBe(messages * 2);
        // A resend or a second delivery would add nothing (one reading per key and instant).
        await client!.publishAsync(
          topic,
          JSON.stringify({ ts: start, values: { flow: 0, pressure: 1.5 } }),
          { qos: 1 },
        );
        const marker = start + messages * 100;
        await client!.publishAsync(
          topic,
          JSON.stringify({ ts: marker, values: { flow: 1, pressure: 1.5 } }),
          { qos: 1 },
        );
        expect(await eventually(storedRows, (n) => n >= messages * 2 + 2)).toBe(messages * 2 + 2);
      },
    );
  },
);
