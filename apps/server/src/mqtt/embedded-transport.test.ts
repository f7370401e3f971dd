import net from 'node:net';
import { MAX_PAYLOAD_BYTES, deviceIdentity, deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Uplink } from './device-transport';
import {
  adminToken,
  closed,
  connectClient,
  grants,
  issueSecret,
  nextMessage,
  tcpUrl,
  wsUrl,
  threeDevicesWithSecrets,
} from './mqtt-test-clients';

describe.each(BACKENDS)('embedded MQTT broker on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  let a: TestDevice;
  let b: TestDevice;
  let other: TestDevice;
  const secrets = new Map<string, string>();
  const clients: MqttClient[] = [];
  let uplinks: Uplink[] = [];

  const device = async (dev: TestDevice, extra: Record<string, unknown> = {}) => {
    const identity = deviceIdentity(dev.tenantCode, dev.deviceNo);
    const client = await connectClient(tcpUrl(server), {
      clientId: identity,
      username: identity,
      password: secrets.get(identity),
      ...extra,
    });
    clients.push(client);
    return client;
  };
  const browser = async (url: string, tenant = 'demo', accessToken = token) => {
    const client = await connectClient(url, {
      clientId: `web:${tenant}:${Math.random().toString(36).slice(2)}`,
      // MQTT 3.1.1 sends no password without a user name; the broker reads only the token.
      username: 'browser',
      password: accessToken,
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    ({ a, b, other } = await threeDevicesWithSecrets(server, token, secrets));
  });
  beforeEach(() => {
    uplinks = [];
    server?.app.deviceTransport.onUplink(async (uplink) => void uplinks.push(uplink));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(
    'issues a secret once with where to connect, and refuses wrong secrets and borrowed ids',
    async () => {
      const issued = await issueSecret(server, token, a.deviceId);
      secrets.set(issued.username, issued.secret);
      expect(issued.username).toBe(`demo:${a.deviceNo}`);
      expect(issued.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(issued.brokerUrls).toContain(tcpUrl(server));
      expect(issued.brokerUrls).toContain(wsUrl(server));

      const identity = issued.username;
      await expect(
        connectClient(tcpUrl(server), { clientId: identity, username: identity, password: 'x' }),
      ).rejects.toMatchObject({ code: 4 });
      // Device b's identity as client id with a's credentials: refused, b keeps its session.
      const bIdentity = deviceIdentity(b.tenantCode, b.deviceNo);
      const holder = await device(b);
      await expect(
        connectClient(tcpUrl(server), {
          clientId: bIdentity,
          username: identity,
          password: issued.secret,
        }),
      ).rejects.toMatchObject({ code: 2 });
      // A browser-shaped id cannot carry a device secret either.
      await expect(
        connectClient(tcpUrl(server), {
          clientId: `web:demo:x`,
          username: identity,
          password: issued.secret,
        }),
      ).rejects.toMatchObject({ code: 4 });
      expect(holder.connected).toBe(true);
      expect(server.app.deviceTransport.isConnected('demo', b.deviceNo)).toBe(true);

      const unknown = await call(server, 'POST', '/api/iot/device/resetDeviceSecret', {
        token: await adminToken(server, 'acme'),
        body: { id: a.deviceId },
      });
      expect(unknown.status).toBe(404);
      const bad = await call(server, 'POST', '/api/iot/device/resetDeviceSecret', {
        token,
        body: { id: 'abc' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('id');
    },
  );

  it.skipIf(!available)(
    "a device publishes only on its own uplink topics: others' reach nobody and are not stored",
    async () => {
      const watcher = await browser(tcpUrl(server));
      await watcher.subscribeAsync('t/demo/#', { qos: 0 });
      const acmeWatcher = await browser(tcpUrl(server), 'acme', await adminToken(server, 'acme'));
      await acmeWatcher.subscribeAsync('t/acme/#', { qos: 0 });
      const seen: string[] = [];
      watcher.on('message', (topic) => seen.push(topic));
      acmeWatcher.on('message', (topic) => seen.push(topic));

      for (const topic of [
        deviceTopic('demo', b.deviceNo, 'telemetry'),
        deviceTopic('acme', other.deviceNo, 'telemetry'),
        deviceTopic('demo', a.deviceNo, 'cmd'),
        't/demo/alarm',
        '$SYS/x',
      ]) {
        const intruder = await device(a);
        const gone = closed(intruder);
        intruder.publish(topic, '{"values":{"x":1}}', { qos: 1 });
        await gone;
      }
      const own = deviceTopic('demo', a.deviceNo, 'telemetry');
      const honest = await device(a);
      const first = nextMessage(watcher);
      await honest.publishAsync(own, '{"values":{"x":2}}', { qos: 1 });
      // Messages of one sender arrive in order: the first to reach anyone is the allowed one.
      expect(await first).toEqual({ topic: own, payload: '{"values":{"x":2}}' });
      expect(seen).toEqual([own]);
      expect(uplinks.map((uplink) => [uplink.deviceNo, uplink.channel])).toEqual([
        [a.deviceNo, 'telemetry'],
      ]);
      // Subscribing beyond its own command topic is refused (SUBACK 128).
      expect(
        await grants(honest, [
          deviceTopic('demo', a.deviceNo, 'cmd'),
          deviceTopic('demo', b.deviceNo, 'cmd'),
          't/demo/#',
        ]),
      ).toEqual([0, 128, 128]);
    },
  );

  it.skipIf(!available)(
    "a browser reads its own tenant's topics with its token and publishes nothing",
    async () => {
      await expect(
        connectClient(tcpUrl(server), {
          clientId: 'web:demo:t1',
          username: 'browser',
          password: 'not-a-token',
        }),
      ).rejects.toMatchObject({ code: 4 });
      await expect(
        connectClient(tcpUrl(server), {
          clientId: 'web:acme:t1',
          username: 'browser',
          password: token,
        }),
      ).rejects.toMatchObject({ code: 5 });

      const client = await browser(tcpUrl(server));
      expect(
        await grants(client, ['t/demo/#', 't/acme/#', 't/demo/u/999999/notify', '#', '$SYS/#']),
      ).toEqual([0, 128, 128, 128, 128]);

      // Another user's bell is not delivered even under t/demo/#; the alarm after it is. (The
      // presence of an earlier test's device may still be on its way: it is the tenant's too.)
      const first = nextMessage(client, (topic) => !topic.startsWith('t/demo/presence/'));
      await server.app.deviceTransport.publishLive('t/demo/u/999999/notify', '{"kind":"x"}');
      await server.app.deviceTransport.publishLive('t/acme/alarm/x', '{"level":"red"}');
      await server.app.deviceTransport.publishLive('t/demo/other', '{"level":"red"}');
      await server.app.deviceTransport.publishLive('t/demo/alarm/x', '{"level":"blue"}');
      expect(await first).toEqual({ topic: 't/demo/alarm/x', payload: '{"level":"blue"}' });

      const gone = closed(client);
      client.publish('t/demo/alarm', 'forged');
      await gone;
    },
  );

  it.skipIf(!available)(
    'acknowledges each QoS 1 message only after the handler stored it',
    async () => {
      const client = await device(a);
      await client.subscribeAsync(deviceTopic('demo', a.deviceNo, 'cmd'), { qos: 0 });
      const acked = new Set<string>();
      const probes = new Map<string, () => void>();
      client.on('message', (_topic, payload) => probes.get(payload.toString())?.());
      const ackedWhileStoring: boolean[] = [];
      server.app.deviceTransport.onUplink(async (uplink) => {
        const id = uplink.payload.toString();
        // A probe sent down the same connection now: an early PUBACK would reach the device
        // before it (one TCP stream keeps order).
        const probed = new Promise<void>((resolve) => probes.set(`probe ${id}`, resolve));
        await server.app.deviceTransport.publishToDevice('demo', a.deviceNo, `probe ${id}`, 0);
        await probed;
        ackedWhileStoring.push(acked.has(id));
      });
      const topic = deviceTopic('demo', a.deviceNo, 'telemetry');
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.publishAsync(topic, `m${i}`, { qos: 1 }).then(() => acked.add(`m${i}`)),
        ),
      );
      expect(acked.size).toBe(20);
      expect(ackedWhileStoring).toEqual(Array.from({ length: 20 }, () => false));
    },
  );

  it.skipIf(!available)(
    'a browser that stops reading holds back no device and is not dropped: its live copies are skipped',
    async () => {
      const viewer = await browser(wsUrl(server));
      await viewer.subscribeAsync('t/demo/d/+/telemetry', { qos: 0 });
      let seen = 0;
      viewer.on('message', () => (seen += 1));
      // The tab stops reading: its stream buffers a little, then the WebSocket pauses its socket.
      const stream = (viewer as unknown as { stream: NodeJS.ReadWriteStream }).stream;
      stream.pause();
      const client = await device(a);
      const topic = deviceTopic('demo', a.deviceNo, 'telemetry');
      // 24 MB: more than the kernel's socket buffers and the live buffer together. Waiting for
      // the browser would stall these acknowledgements until the drain timeout dropped it.
      const payload = 'x'.repeat(16 * 1024);
      for (let round = 0; round < 15; round += 1)
        await Promise.all(
          Array.from({ length: 100 }, () => client.publishAsync(topic, payload, { qos: 1 })),
        );
      expect(uplinks.length).toBe(1500);
      // The tab reads again and is still subscribed: it was skipped, not disconnected.
      stream.resume();
      const marker = new Promise<string>((resolve) => {
        viewer.on('message', (_topic, body) => body.toString() === 'marker' && resolve('marker'));
        viewer.once('close', () => resolve('closed'));
      });
      // Copies published while its backlog drains may still be skipped: send until one arrives.
      let answer: string | undefined;
      void marker.then((outcome) => (answer = outcome));
      while (!answer) {
        await client.publishAsync(topic, 'marker', { qos: 1 });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer).toBe('marker');
      expect(seen).toBeLessThan(uplinks.length);
    },
  );

  it.skipIf(!available)(
    'a handler that fails withholds the PUBACK; the device sends the message again',
    async () => {
      let failing = true;
      const calls: string[] = [];
      let rejected!: () => void;
      const firstRejection = new Promise<void>((resolve) => (rejected = resolve));
      server.app.deviceTransport.onUplink(async (uplink) => {
        calls.push(uplink.payload.toString());
        if (failing) {
          rejected();
          throw new Error('database unavailable');
        }
      });
      const client = await device(a, { reconnectPeriod: 50 });
      let acked = false;
      const gone = closed(client);
      const published = client
        .publishAsync(deviceTopic('demo', a.deviceNo, 'telemetry'), '{"values":{"x":7}}', {
          qos: 1,
        })
        .then(() => (acked = true));
      await firstRejection;
      await gone;
      expect(acked).toBe(false);
      failing = false;
      await published;
      expect(acked).toBe(true);
      expect(calls).toEqual(['{"values":{"x":7}}', '{"values":{"x":7}}']);
    },
  );

  it.skipIf(!available)(
    'a payload over the limit closes that connection only and is not stored',
    async () => {
      const bystander = await device(b);
      const topic = deviceTopic('demo', a.deviceNo, 'telemetry');
      for (const size of [MAX_PAYLOAD_BYTES + 1, 4 * 1024 * 1024]) {
        const big = await device(a);
        const gone = closed(big);
        big.publish(topic, Buffer.alloc(size, 0x20), { qos: 1 });
        await gone;
      }
      await bystander.publishAsync(deviceTopic('demo', b.deviceNo, 'event'), '{"key":"k"}', {
        qos: 1,
      });
      expect(uplinks.map((uplink) => uplink.deviceNo)).toEqual([b.deviceNo]);
      expect(bystander.connected).toBe(true);
    },
  );

  it.skipIf(!available)(
    'revoking or rotating a secret disconnects the device and the old secret stops working',
    async () => {
      const identity = deviceIdentity('demo', b.deviceNo);
      const oldSecret = secrets.get(identity)!;
      const connected = await device(b);
      const gone = closed(connected);
      const rotated = await issueSecret(server, token, b.deviceId);
      await gone;
      await expect(
        connectClient(tcpUrl(server), {
          clientId: identity,
          username: identity,
          password: oldSecret,
        }),
      ).rejects.toMatchObject({ code: 4 });
      secrets.set(identity, rotated.secret);
      const again = await device(b);
      const goneAgain = closed(again);
      const revoked = await call(server, 'POST', '/api/iot/device/revokeDeviceSecret', {
        token,
        body: { id: b.deviceId },
      });
      expect(revoked.status).toBe(200);
      await goneAgain;
      await expect(
        connectClient(tcpUrl(server), {
          clientId: identity,
          username: identity,
          password: rotated.secret,
        }),
      ).rejects.toMatchObject({ code: 4 });
      expect(server.app.deviceTransport.isConnected('demo', b.deviceNo)).toBe(false);
      secrets.set(identity, (await issueSecret(server, token, b.deviceId)).secret);
    },
  );

  it.skipIf(!available)(
    'serves browsers and devices over WebSocket at /mqtt, with presence and commands',
    async () => {
      const presence: Array<[string, boolean]> = [];
      server.app.deviceTransport.onPresence(
        (event) => void presence.push([event.deviceNo, event.online]),
      );
      const web = await browser(wsUrl(server));
      await web.subscribeAsync('t/demo/d/+/+');
      const identity = deviceIdentity('demo', a.deviceNo);
      const dev = await connectClient(wsUrl(server), {
        clientId: identity,
        username: identity,
        password: secrets.get(identity),
      });
      clients.push(dev);
      await dev.subscribeAsync(deviceTopic('demo', a.deviceNo, 'cmd'), { qos: 1 });
      expect(presence).toEqual([[a.deviceNo, true]]);
      expect(server.app.deviceTransport.isConnected('demo', a.deviceNo)).toBe(true);

      const command = nextMessage(dev);
      await server.app.deviceTransport.publishToDevice('demo', a.deviceNo, '{"id":"c1"}', 1);
      expect(await command).toEqual({
        topic: deviceTopic('demo', a.deviceNo, 'cmd'),
        payload: '{"id":"c1"}',
      });
      const live = nextMessage(web);
      await dev.publishAsync(deviceTopic('demo', a.deviceNo, 'telemetry'), '{"values":{"w":1}}', {
        qos: 1,
      });
      expect(await live).toEqual({
        topic: deviceTopic('demo', a.deviceNo, 'telemetry'),
        payload: '{"values":{"w":1}}',
      });
      const offline = new Promise<void>((resolve) =>
        server.app.deviceTransport.onPresence((event) => {
          presence.push([event.deviceNo, event.online]);
          resolve();
        }),
      );
      await dev.endAsync();
      await offline;
      expect(presence).toEqual([
        [a.deviceNo, true],
        [a.deviceNo, false],
      ]);
    },
  );

  it.skipIf(!available)(
    'a device that only connects and subscribes to its commands is reported online once, every time',
    async () => {
      // Like many device stacks, the device sends SUBSCRIBE without waiting for CONNACK. aedes
      // reads it once CONNACK is written: with a persistent session holding a queued command,
      // the subscription completes while that command is being sent, before 'clientReady'; a
      // restored subscription raises no 'subscribe' event at all. Whatever the order, the
      // online report comes once per connection.
      const dev = await createTestDevice(server.db, 'demo');
      const issued = await issueSecret(server, token, dev.deviceId);
      const identity = issued.username;
      const events: boolean[] = [];
      let heard: (() => void) | undefined;
      server.app.deviceTransport.onPresence((event) => {
        if (event.deviceNo !== dev.deviceNo) return;
        events.push(event.online);
        heard?.();
      });
      const port = server.app.deviceTransport.endpoints().tcpPort!;
      const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
      const cmd = deviceTopic('demo', dev.deviceNo, 'cmd');
      /** Connects, and subscribes `turns` event-loop turns after CONNECT (not at all if null). */
      const session = async (clean: boolean, turns: number | null) => {
        const socket = net.connect(port, '127.0.0.1');
        // The broker may reset it as it closes after DISCONNECT: nothing the test waits for.
        socket.on('error', () => undefined);
        const suback = new Promise<void>((resolve) =>
          onPackets(socket, (type) => type === 0x90 && resolve()),
        );
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        socket.write(connectPacket(identity, identity, issued.secret, clean));
        if (turns !== null) {
          for (let i = 0; i < turns; i++) await turn();
          socket.write(subscribePacket(1, cmd, 1));
        }
        // The report is made as the broker takes the connection or completes the subscription,
        // its handler runs a microtask later: once the broker holds the connection, the SUBACK
        // is in and a turn has passed, it has been made if it ever will (no clock involved).
        while (!server.app.deviceTransport.isConnected('demo', dev.deviceNo)) {
          if (socket.closed) throw new Error('connection refused');
          await turn();
        }
        if (turns !== null) await suback;
        await turn();
        return socket;
      };
      const leave = async (socket: net.Socket) => {
        const offline = new Promise<void>((resolve) => (heard = resolve));
        socket.end(Buffer.from([0xe0, 0]));
        await offline;
        heard = undefined;
      };
      const expected: boolean[] = [];
      for (const clean of [true, false]) {
        for (let round = 0; round < 12; round++) {
          const socket = await session(clean, round % 6);
          expected.push(true);
          expect(events, `clean ${clean}, round ${round}`).toEqual(expected);
          await leave(socket);
          expected.push(false);
          // Queued in the persistent session while the device is away; never acknowledged, it
          // is sent again at every connection.
          if (!clean && round === 0)
            await server.app.deviceTransport.publishToDevice('demo', dev.deviceNo, '{"id":"q"}', 1);
        }
      }
      // Reconnecting without subscribing: the restored subscription is in place.
      const restored = await session(false, null);
      expected.push(true);
      expect(events).toEqual(expected);
      await leave(restored);
      expected.push(false);
      // A clean session without a subscription (a plain sensor) is not reported; it also ends
      // the persistent one.
      const plain = await session(true, null);
      expect(events).toEqual(expected);
      plain.end(Buffer.from([0xe0, 0]));
    },
  );
});

/** MQTT 3.1.1 packets written by hand: mqtt.js never sends SUBSCRIBE before CONNACK. */
function mqttString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

function mqttPacket(header: number, body: Buffer): Buffer {
  const length: number[] = [];
  let rest = body.length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    length.push(byte);
  } while (rest > 0);
  return Buffer.concat([Buffer.from([header, ...length]), body]);
}

function connectPacket(
  clientId: string,
  username: string,
  password: string,
  clean: boolean,
): Buffer {
  return mqttPacket(
    0x10,
    Buffer.concat([
      mqttString('MQTT'),
      // Level 4, user name + password (+ clean session), keep-alive 60 s.
      Buffer.from([4, clean ? 0xc2 : 0xc0, 0, 60]),
      mqttString(clientId),
      mqttString(username),
      mqttString(password),
    ]),
  );
}

function subscribePacket(id: number, topic: string, qos: number): Buffer {
  return mqttPacket(
    0x82,
    Buffer.concat([Buffer.from([id >> 8, id & 0xff]), mqttString(topic), Buffer.from([qos])]),
  );
}

/** Calls `onPacket` with the type (first byte, flags masked) of every packet received. */
function onPackets(socket: net.Socket, onPacket: (type: number) => void): void {
  let data = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    for (;;) {
      let length = 0;
      let multiplier = 1;
      let at = 1;
      for (; at < data.length; at++) {
        length += (data[at]! & 0x7f) * multiplier;
        multiplier *= 128;
        if ((data[at]! & 0x80) === 0) break;
      }
      if (at >= data.length || data.length < at + 1 + length) return;
      onPacket(data[0]! & 0xf0);
      data = data.subarray(at + 1 + length);
    }
  });
}
