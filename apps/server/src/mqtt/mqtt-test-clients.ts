import crypto from 'node:crypto';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { call, signIn } from '@shuili/test-support/api-client';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';

/** The embedded broker's TCP address in a test server. */
export function tcpUrl(server: TestServer): string {
  return `mqtt://127.0.0.1:${server.app.deviceTransport.endpoints().tcpPort}`;
}

export function wsUrl(server: TestServer): string {
  return `${server.url.replace(/^http/, 'ws')}/mqtt`;
}

/** Connects like a device; rejects with the CONNACK refusal (error.code) when refused. */
export function connectClient(url: string, options: IClientOptions): Promise<MqttClient> {
  return connectAsync(url, { reconnectPeriod: 0, connectTimeout: 10_000, ...options }, false);
}

/** A fresh secret for a device through the real route, as an administrator gets it. */
export async function issueSecret(
  server: TestServer,
  token: string,
  deviceId: string,
): Promise<{ username: string; secret: string; brokerUrls: string[] }> {
  const response = await call(server, 'POST', '/api/iot/device/resetDeviceSecret', {
    token,
    body: { id: deviceId },
  });
  if (response.status !== 200) throw new Error(`reset failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export async function adminToken(server: TestServer, tenant = 'demo'): Promise<string> {
  return (await signIn(server, tenant, 'admin', 'admin123')).access_token;
}

/** Resolves on the client's next 'close'. */
export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => client.once('close', () => resolve()));
}

/** Resolves with the next message the client receives on a topic it wants (any, by default). */
export function nextMessage(
  client: MqttClient,
  wanted: (topic: string) => boolean = () => true,
): Promise<{ topic: string; payload: string }> {
  return new Promise((resolve) => {
    const take = (topic: string, payload: Buffer) => {
      if (!wanted(topic)) return;
      client.off('message', take);
      resolve({ topic, payload: payload.toString() });
    };
    client.on('message', take);
  });
}

/** Collects what a client receives, to wait for one message and see what came before it. */
export function inbox(client: MqttClient) {
  const topics: string[] = [];
  const waiters: Array<{ topic: string; resolve: () => void }> = [];
  client.on('message', (topic) => {
    topics.push(topic);
    for (const waiter of waiters.filter((one) => one.topic === topic)) waiter.resolve();
  });
  return {
    topics,
    /** Waits until the topic arrived; answers every topic received before it (and clears). */
    async until(topic: string): Promise<string[]> {
      if (!topics.includes(topic))
        await new Promise<void>((resolve, reject) => {
          waiters.push({ topic, resolve });
          setTimeout(
            () => reject(new Error(`${topic} never arrived: ${topics.join(', ')}`)),
            5_000,
          );
        });
      const before = topics.slice(0, topics.indexOf(topic));
      topics.length = 0;
      return before;
    },
  };
}

/** Subscribes to each filter alone: the granted QoS, or 128 when refused. */
export async function grants(client: MqttClient, filters: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const filter of filters) {
    out.push(
      await client.subscribeAsync(filter, { qos: 0 }).then(
        (granted) => granted[0]?.qos ?? -1,
        () => 128,
      ),
    );
  }
  return out;
}

/**
 * Two demo devices and one of acme, each with a fresh secret issued by its own tenant's admin;
 * the secrets are filed under the devices' MQTT usernames in `secrets`.
 */
export async function threeDevicesWithSecrets(
  server: TestServer,
  demoToken: string,
  secrets: Map<string, string>,
): Promise<{ a: TestDevice; b: TestDevice; other: TestDevice }> {
  const a = await createTestDevice(server.db, 'demo');
  const b = await createTestDevice(server.db, 'demo');
  const other = await createTestDevice(server.db, 'acme');
  const acmeToken = await adminToken(server, 'acme');
  for (const [device, token] of [
    [a, demoToken],
    [b, demoToken],
    [other, acmeToken],
  ] as const) {
    const issued = await issueSecret(server, token, device.deviceId);
    secrets.set(issued.username, issued.secret);
  }
  return { a, b, other };
}

/** Whether the client's connection closes within `ms` ("at once" in the security suites). */
export function closesWithin(client: MqttClient, ms = 2_000): Promise<boolean> {
  return Promise.race([
    closed(client).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

/** The run's Mosquitto (anonymous clients allowed), when it names one. */
export const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;
const BROKER_AUTH_SECRET = 'broker-shared-secret-0123456789';

/**
 * A test server consuming through the run's Mosquitto (a share group and node id of its own),
 * answering the broker's auth hooks with their shared secret.
 */
export function startExternalBrokerServer(): Promise<TestServer> {
  return startTestServer({
    config: {
      mqttUrl: TEST_MQTT_URL,
      mqttShareGroup: `test${crypto.randomBytes(4).toString('hex')}`,
      mqttNodeId: `test-${crypto.randomBytes(4).toString('hex')}`,
      mqttConsumers: 1,
      mqttAuthSecret: BROKER_AUTH_SECRET,
      mqttUsername: 'shuili-node',
      mqttPassword: 'server-password-0123456789',
    },
  });
}

/** The broker's authentication hook (EMQX form): whether the secret lets the identity in. */
export async function brokerAllows(
  server: TestServer,
  identity: string,
  secret: string,
): Promise<boolean> {
  const answer = await call(server, 'POST', '/api/iot/mqtt/auth', {
    headers: { 'x-mqtt-auth-secret': BROKER_AUTH_SECRET },
    body: { clientid: identity, username: identity, password: secret },
  });
  return answer.body.result === 'allow';
}

/** A device connected to the run's Mosquitto with a fresh secret its tenant's admin issued. */
export async function deviceOnBroker(
  server: TestServer,
  token: string,
  device: TestDevice,
): Promise<{ issued: { username: string; secret: string }; client: MqttClient }> {
  const issued = await issueSecret(server, token, device.deviceId);
  // Issuing takes the identity over on the broker once: let that pass first.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const client = await connectClient(TEST_MQTT_URL!, {
    clientId: issued.username,
    username: issued.username,
    password: issued.secret,
  });
  return { issued, client };
}
