import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { call, signIn } from '../testing/api-client';
import type { TestServer } from '../testing/test-server';
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

/** Resolves with the next message the client receives. */
export function nextMessage(client: MqttClient): Promise<{ topic: string; payload: string }> {
  return new Promise((resolve) =>
    client.once('message', (topic, payload) => resolve({ topic, payload: payload.toString() })),
  );
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
