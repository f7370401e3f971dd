import crypto from 'node:crypto';
import { deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Presence, Uplink } from './device-transport';
import { adminToken, connectClient, nextMessage, wsUrl } from './mqtt-test-clients';

/** Mosquitto (anonymous clients allowed) when the run names one. */
const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;

describe.skipIf(!TEST_MQTT_URL)('external MQTT broker (MQTT_URL)', () => {
  let server: TestServer;
  const clients: MqttClient[] = [];
  const deviceNo = `ext-${crypto.randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        mqttUrl: TEST_MQTT_URL,
        // A group of its own: other runs against the same Mosquitto must not take our messages.
        mqttShareGroup: `test${crypto.randomBytes(4).toString('hex')}`,
        mqttConsumers: 2,
        // Its own client ids (parallel runs share this Mosquitto), and sessions that do not
        // outlive the run by long.
        mqttNodeId: `test-${crypto.randomBytes(4).toString('hex')}`,
        mqttSessionExpirySeconds: 60,
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await server?.close();
  });

  it('hands shared uplinks over, retries a failed store, relays to browsers and sends commands', async () => {
    const transport = server.app.deviceTransport;
    const calls: Uplink[] = [];
    let stored!: () => void;
    const storedOnce = new Promise<void>((resolve) => (stored = resolve));
    transport.onUplink(async (uplink) => {
      if (uplink.deviceNo !== deviceNo || uplink.channel !== 'telemetry') return;
      calls.push(uplink);
      if (calls.length === 1) throw new Error('database unavailable');
      stored();
    });
    const presence: Presence[] = [];
    transport.onPresence((event) => void presence.push(event));

    const dev = await connectClient(TEST_MQTT_URL!, { clientId: `demo:${deviceNo}` });
    clients.push(dev);
    await dev.subscribeAsync(deviceTopic('demo', deviceNo, 'cmd'), { qos: 1 });
    await dev.publishAsync(deviceTopic('demo', deviceNo, 'telemetry'), '{"values":{"x":1}}', {
      qos: 1,
    });
    await storedOnce;
    expect(calls.map((call) => call.payload.toString())).toEqual([
      '{"values":{"x":1}}',
      '{"values":{"x":1}}',
    ]);

    // Presence from the device's retained status, on this node's map and its handler.
    const statusTopic = deviceTopic('demo', deviceNo, 'status');
    await dev.publishAsync(statusTopic, '{"online":true}', { qos: 1, retain: true });
    while (!transport.isConnected('demo', deviceNo)) await new Promise((r) => setTimeout(r, 20));
    // Other devices' retained statuses (earlier runs on this Mosquitto) arrive too: ours only.
    const ours = () => presence.filter((event) => event.deviceNo === deviceNo);
    while (ours().length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(ours()[0]).toMatchObject({ tenantCode: 'demo', deviceNo, online: true });

    const command = nextMessage(dev);
    await transport.publishToDevice('demo', deviceNo, '{"id":"c1"}', 1);
    expect(await command).toEqual({
      topic: deviceTopic('demo', deviceNo, 'cmd'),
      payload: '{"id":"c1"}',
    });

    // A browser on /mqtt of this node sees the tenant's traffic through the relay.
    const web = await connectClient(wsUrl(server), {
      clientId: 'web:demo:ext',
      username: 'browser',
      password: await adminToken(server),
    });
    clients.push(web);
    await web.subscribeAsync('t/demo/alarm/+');
    let received = false;
    const alarm = nextMessage(web).then((message) => {
      received = true;
      return message;
    });
    // The relay subscribes when the browser arrives; push until it is in place.
    while (!received) {
      await transport.publishLive('t/demo/alarm/x', '{"level":"red"}');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await alarm).toEqual({ topic: 't/demo/alarm/x', payload: '{"level":"red"}' });
    await dev.publishAsync(statusTopic, '', { qos: 1, retain: true });
  });
});
