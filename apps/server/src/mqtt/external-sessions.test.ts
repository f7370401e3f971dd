import crypto from 'node:crypto';
import { deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Uplink } from './device-transport';
import { connectClient } from './mqtt-test-clients';

/** Mosquitto (anonymous clients allowed) when the run names one. */
const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;

/**
 * A node's consumers keep persistent sessions under its MQTT_NODE_ID: what devices publish while
 * the node restarts waits in the broker for it (docs/iot.md "External broker durability").
 * The broker's own restart is security/faults/broker-restart.test.ts.
 */
describe.skipIf(!TEST_MQTT_URL)('external broker: consumer sessions across a node restart', () => {
  const servers: TestServer[] = [];
  const clients: MqttClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    // Some were closed by the test already (a node going away).
    await Promise.all(servers.map((server) => server.close().catch(() => {})));
  });

  /** This run's devices: every run on the shared Mosquitto publishes to the same filters. */
  const run = `sess-${crypto.randomBytes(4).toString('hex')}`;

  /** A node of a deployment of its own (share group), delivering this run's uplinks to `seen`. */
  const startNode = async (config: Partial<Config>, seen: Uplink[]) => {
    const server = await startTestServer({
      config: { mqttUrl: TEST_MQTT_URL, mqttConsumers: 2, ...config },
      // Before listening: the consumers start with it and may be handed queued uplinks at once.
      beforeListen: async (app) =>
        app.deviceTransport.onUplink(async (uplink) => {
          if (uplink.deviceNo.startsWith(run)) seen.push(uplink);
        }),
    });
    servers.push(server);
    return server;
  };

  /** Publishes one QoS 1 reading as a device, until the broker's PUBACK. */
  const publishReading = async (deviceNo: string, payload: string) => {
    const device = await connectClient(TEST_MQTT_URL!, { clientId: `demo:${deviceNo}` });
    clients.push(device);
    await device.publishAsync(deviceTopic('demo', deviceNo, 'telemetry'), payload, { qos: 1 });
    await device.endAsync();
  };

  const waitUntil = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('a node restarted under the same id gets what was published while it was away; a node that leaves takes nothing with it', async () => {
    const group = `sess${crypto.randomBytes(4).toString('hex')}`;
    const node = {
      // A deployment of its own on the shared Mosquitto, sessions that do not outlive the run by long.
      mqttShareGroup: group,
      mqttNodeId: `test-${crypto.randomBytes(4).toString('hex')}`,
      mqttSessionExpirySeconds: 60,
    };
    const first: Uplink[] = [];
    await (await startNode(node, first)).close();
    // Nobody of this deployment is connected: the broker keeps the reading in the node's session.
    // With clean sessions (MQTT_SESSION_EXPIRY_SECONDS=0, the old behaviour) it would have no
    // subscriber, be dropped, and this test would time out below.
    await publishReading(`${run}-1`, '{"values":{"x":1}}');
    const second: Uplink[] = [];
    await startNode(node, second);
    await waitUntil(() => second.length > 0);
    expect(second.map((uplink) => uplink.payload.toString())).toEqual(['{"values":{"x":1}}']);
    expect(first).toEqual([]);

    // A second node joins and is removed for good (MQTT_LEAVE_ON_STOP): what devices publish
    // afterwards all reaches the node that stays. Without leaving, the broker would keep giving
    // the removed node's sessions their turn, and the readings queued there would never arrive.
    const removed: Uplink[] = [];
    const other = await startNode(
      {
        ...node,
        mqttNodeId: `test-${crypto.randomBytes(4).toString('hex')}`,
        mqttLeaveOnStop: true,
      },
      removed,
    );
    await other.close();
    const readings = [2, 3, 4, 5].map((x) => `{"values":{"x":${x}}}`);
    for (const payload of readings) await publishReading(`${run}-2`, payload);
    await waitUntil(() => second.length === 1 + readings.length);
    // Two consumers store side by side: the order between them is not the test's subject.
    expect(
      second
        .slice(1)
        .map((uplink) => uplink.payload.toString())
        .sort(),
    ).toEqual(readings);
    expect(removed).toEqual([]);
  }, 120_000);
});
