import { deviceIdentity, deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import {
  BACKENDS,
  startSecondNode,
  startTestServer,
  type TestServer,
} from '@shuili/test-support/test-server';
import {
  adminToken,
  brokerAllows as brokerAllowsOn,
  closesWithin,
  connectClient,
  deviceOnBroker,
  issueSecret,
  startExternalBrokerServer,
  tcpUrl,
  TEST_MQTT_URL,
} from '../mqtt/mqtt-test-clients';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';

/**
 * A device identity dies with its device (issue 15 item 3): deleting a device, changing its
 * number or revoking its secret ends its MQTT session at once, on every node and with an
 * external broker, and its secret never works again, not even for a new device of the same
 * number; a connection of an ended identity never speaks for the device now under its number.
 */

/** The deadline of "at once". */
const AT_ONCE_MS = 2_000;

/** Whether the client's connection closes within AT_ONCE_MS. */
const closesAtOnce = (client: MqttClient) => closesWithin(client, AT_ONCE_MS);

type Issued = { username: string; secret: string };

const asDevice = (url: string, issued: Issued, identity = issued.username) =>
  connectClient(url, { clientId: identity, username: identity, password: issued.secret });

const deleteDevice = (server: TestServer, token: string, id: string) =>
  call(server, 'POST', '/api/iot/device/deleteIotDevice', { token, body: { id: [id] } });

const revokeSecret = (server: TestServer, token: string, id: string) =>
  call(server, 'POST', '/api/iot/device/revokeDeviceSecret', { token, body: { id } });

const renumberDevice = (server: TestServer, token: string, id: string, deviceNo: string) =>
  call(server, 'PUT', '/api/iot/device/updateIotDevice', { token, body: { id, deviceNo } });

/** A new device of the product under a number of the caller's choosing (a reused one). */
async function addDevice(server: TestServer, token: string, productId: string, deviceNo: string) {
  const added = await call(server, 'POST', '/api/iot/device/addIotDevice', {
    token,
    body: { deviceNo, deviceName: `Device ${deviceNo}`, productId },
  });
  expect(added.status).toBe(200);
  return String(added.body.data.id);
}

describe.each(BACKENDS)('device identities end with their device on $backend', (target) => {
  const { backend, available } = target;
  let server: TestServer;
  let token: string;
  const clients: MqttClient[] = [];

  /** A device of its own with a fresh secret, connected to the broker at `url`. */
  const connectedDevice = async (url = tcpUrl(server)) => {
    const device = await createTestDevice(server.db, 'demo');
    const issued = await issueSecret(server, token, device.deviceId);
    const client = await asDevice(url, issued);
    clients.push(client);
    return { device, issued, client };
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await server?.close();
  });

  it.skipIf(!available)(
    'deleting a device closes its connection at once, and its secret never works for a new device of the same number',
    async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      expect((await deleteDevice(server, token, device.deviceId)).status).toBe(200);
      expect(await gone).toBe(true);

      const reused = await addDevice(server, token, device.productId, device.deviceNo);
      await expect(asDevice(tcpUrl(server), issued)).rejects.toMatchObject({ code: 4 });
      // The new device's own secret works, and the old one still does not.
      const own = await issueSecret(server, token, reused);
      clients.push(await asDevice(tcpUrl(server), own));
      await expect(asDevice(tcpUrl(server), issued)).rejects.toMatchObject({ code: 4 });
      // Nothing of the old device's secret is left behind.
      const { rows } = await server.db.system((sql) =>
        sql.query('SELECT 1 FROM iot_device_credential WHERE device_id = $1', [device.deviceId]),
      );
      expect(rows).toEqual([]);
    },
  );

  it.skipIf(!available)(
    'a new number ends the old identity: disconnected at once, its secret refused under either number',
    async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      const newNo = `${device.deviceNo}-moved`;
      expect((await renumberDevice(server, token, device.deviceId, newNo)).status).toBe(200);
      expect(await gone).toBe(true);
      await expect(asDevice(tcpUrl(server), issued)).rejects.toMatchObject({ code: 4 });
      await expect(
        asDevice(tcpUrl(server), issued, deviceIdentity('demo', newNo)),
      ).rejects.toMatchObject({ code: 4 });
      // A secret issued for the new number connects under it.
      const fresh = await issueSecret(server, token, device.deviceId);
      expect(fresh.username).toBe(deviceIdentity('demo', newNo));
      clients.push(await asDevice(tcpUrl(server), fresh));
    },
  );

  it.skipIf(!available)(
    'revoking a secret (how a device is disabled) closes its connection at once',
    async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      expect((await revokeSecret(server, token, device.deviceId)).status).toBe(200);
      expect(await gone).toBe(true);
      await expect(asDevice(tcpUrl(server), issued)).rejects.toMatchObject({ code: 4 });
    },
  );

  it.skipIf(!available)(
    "a connection whose end was not announced never speaks for, nor hears, the number's new device",
    async () => {
      const reading = { values: { flow: 7 } };
      const speaker = await connectedDevice();
      const listener = await connectedDevice();
      const listenerCmd = deviceTopic('demo', listener.device.deviceNo, 'cmd');
      await listener.client.subscribeAsync(listenerCmd, { qos: 1 });
      const heard: string[] = [];
      listener.client.on('message', (_topic, payload) => heard.push(payload.toString()));
      // As if this node missed the announcements (its database connection was down meanwhile):
      // both devices are deleted and their numbers reused, their connections stay open here.
      await server.app.deviceCredentials.stop();
      try {
        const reused: string[] = [];
        for (const { device } of [speaker, listener]) {
          expect((await deleteDevice(server, token, device.deviceId)).status).toBe(200);
          reused.push(await addDevice(server, token, device.productId, device.deviceNo));
        }
        expect(speaker.client.connected && listener.client.connected).toBe(true);

        // A reading of the old connection: refused, its connection closed, nothing stored.
        const speakerGone = closesAtOnce(speaker.client);
        void speaker.client
          .publishAsync(
            deviceTopic('demo', speaker.device.deviceNo, 'telemetry'),
            JSON.stringify(reading),
            { qos: 1 },
          )
          .catch(() => undefined);
        expect(await speakerGone).toBe(true);
        const { rows } = await server.db.system((sql) =>
          sql.query('SELECT 1 FROM iot_telemetry_latest WHERE device_id = $1', [reused[0]]),
        );
        expect(rows).toEqual([]);

        // A command for the new device: the old connection is closed first, never sent it.
        const listenerGone = closesAtOnce(listener.client);
        await server.app.deviceTransport.publishToDevice(
          'demo',
          listener.device.deviceNo,
          '{"id":"for-the-new-device"}',
          1,
          reused[1],
        );
        expect(await listenerGone).toBe(true);
        expect(heard).toEqual([]);

        // A secret revoked meanwhile: the re-check once listening again (after a lost database
        // connection) ends the connection made with it.
        const revokedUnheard = await connectedDevice();
        // The broker counts a connection in once its session is set up, a moment after CONNACK.
        while (!server.app.deviceTransport.isConnected('demo', revokedUnheard.device.deviceNo))
          await new Promise((resolve) => setTimeout(resolve, 10));
        const revokedGone = closesAtOnce(revokedUnheard.client);
        await server.app.deviceCredentials.revoke(
          revokedUnheard.device.tenantId,
          revokedUnheard.device.deviceId,
        );
        await server.app.deviceTransport.recheckDevices((ids) =>
          server.app.deviceCredentials.liveCredentials(ids),
        );
        expect(await revokedGone).toBe(true);
      } finally {
        await server.app.deviceCredentials.start();
      }
    },
  );

  it.skipIf(!available || backend !== 'postgres')(
    'a device connected to another node is dropped there when this node deletes or revokes it',
    async () => {
      const second = await startSecondNode(server);
      try {
        const deleted = await connectedDevice(tcpUrl(second));
        const revoked = await connectedDevice(tcpUrl(second));
        expect(second.app.deviceTransport.isConnected('demo', deleted.device.deviceNo)).toBe(true);
        const gone = closesAtOnce(deleted.client);
        expect((await deleteDevice(server, token, deleted.device.deviceId)).status).toBe(200);
        expect(await gone).toBe(true);
        const goneToo = closesAtOnce(revoked.client);
        expect((await revokeSecret(server, token, revoked.device.deviceId)).status).toBe(200);
        expect(await goneToo).toBe(true);
      } finally {
        await second.close();
      }
    },
  );
});

describe.skipIf(!TEST_MQTT_URL)(
  'device identities end with their device on an external broker',
  () => {
    let server: TestServer;
    let token: string;
    const clients: MqttClient[] = [];

    const brokerAllows = (identity: string, secret: string) =>
      brokerAllowsOn(server, identity, secret);

    const connectedDevice = async () => {
      const device: TestDevice = await createTestDevice(server.db, 'demo');
      const { issued, client } = await deviceOnBroker(server, token, device);
      clients.push(client);
      expect(await brokerAllows(issued.username, issued.secret)).toBe(true);
      return { device, issued, client };
    };

    beforeAll(async () => {
      server = await startExternalBrokerServer();
      token = await adminToken(server);
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.endAsync(true)));
      await server?.close();
    });

    it('deleting a device ends its session on the broker at once and refuses its secret', async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      expect((await deleteDevice(server, token, device.deviceId)).status).toBe(200);
      expect(await gone).toBe(true);
      expect(await brokerAllows(issued.username, issued.secret)).toBe(false);
      await addDevice(server, token, device.productId, device.deviceNo);
      expect(await brokerAllows(issued.username, issued.secret)).toBe(false);
    });

    it('a new number ends the old session at once; the secret is refused under either number', async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      const newNo = `${device.deviceNo}-moved`;
      expect((await renumberDevice(server, token, device.deviceId, newNo)).status).toBe(200);
      expect(await gone).toBe(true);
      expect(await brokerAllows(issued.username, issued.secret)).toBe(false);
      expect(await brokerAllows(deviceIdentity('demo', newNo), issued.secret)).toBe(false);
    });

    it('revoking a secret ends the session at once', async () => {
      const { device, issued, client } = await connectedDevice();
      const gone = closesAtOnce(client);
      expect((await revokeSecret(server, token, device.deviceId)).status).toBe(200);
      expect(await gone).toBe(true);
      expect(await brokerAllows(issued.username, issued.secret)).toBe(false);
    });
  },
);
