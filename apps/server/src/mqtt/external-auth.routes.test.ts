import crypto from 'node:crypto';
import { deviceIdentity, deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../modules/uaa/access-token';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { AuthBusyError, AuthGate } from './auth-gate';
import { ExternalAuthService } from './external-auth.service';
import {
  adminToken,
  closed,
  connectClient,
  issueSecret,
  threeDevicesWithSecrets,
} from './mqtt-test-clients';

const SECRET = 'broker-shared-secret-0123456789';
const SERVER_USER = 'shuili-node';
const SERVER_PASSWORD = 'server-password-0123456789';
const brokerHeaders = { 'x-mqtt-auth-secret': SECRET };
/** mosquitto-go-auth sends the user info of its http_host as Basic auth. */
const basic = (password: string) =>
  `Basic ${Buffer.from(`mosquitto:${password}`).toString('base64')}`;

describe.each(BACKENDS)('external broker auth hooks on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  let adminId: string;
  let a: TestDevice;
  let b: TestDevice;
  let other: TestDevice;
  const secrets = new Map<string, string>();
  const id = (dev: TestDevice) => deviceIdentity(dev.tenantCode, dev.deviceNo);

  const post = (path: string, body: unknown, headers: Record<string, string> = brokerHeaders) =>
    call(server, 'POST', path, { body, headers });
  /** EMQX authentication: the result, or the status when it is not 200. */
  const emqxAuth = async (
    clientid: string,
    username: string,
    password: string,
    headers?: Record<string, string>,
  ) => {
    const response = await post('/api/iot/mqtt/auth', { clientid, username, password }, headers);
    if (response.status !== 200) return response.status;
    expect(response.body.is_superuser).toBe(false);
    return response.body.result as string;
  };
  /** mosquitto-go-auth user check: the status. */
  const goAuthUser = async (clientid: string, username: string, password: string) =>
    (await post('/api/iot/mqtt/user', { username, password, clientid })).status;
  const emqxAcl = async (
    clientid: string,
    username: string,
    topic: string,
    action: 'publish' | 'subscribe',
  ) => {
    const response = await post('/api/iot/mqtt/acl', { clientid, username, topic, action });
    return response.status === 200 ? (response.body.result as string) : response.status;
  };
  const goAuthAcl = async (clientid: string, username: string, topic: string, acc: number) =>
    (await post('/api/iot/mqtt/acl', { username, clientid, topic, acc })).status;
  const deviceAcl = (dev: TestDevice, topic: string, action: 'publish' | 'subscribe') =>
    emqxAcl(id(dev), id(dev), topic, action);

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({
      backend,
      config: {
        mqttAuthSecret: SECRET,
        mqttUsername: SERVER_USER,
        mqttPassword: SERVER_PASSWORD,
      },
    });
    token = await adminToken(server);
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `SELECT u.id::text AS id FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
          WHERE t.tenant_code = 'demo' AND u.username = 'admin'`,
      ),
    );
    adminId = rows[0]!.id;
    ({ a, b, other } = await threeDevicesWithSecrets(server, token, secrets));
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(
    "allows a device's own secret and refuses wrong secrets, unknown devices and borrowed ids",
    async () => {
      const identity = id(a);
      const secret = secrets.get(identity)!;
      expect(await emqxAuth(identity, identity, secret)).toBe('allow');
      expect(await goAuthUser(identity, identity, secret)).toBe(200);
      expect(await emqxAuth(identity, identity, `${secret}x`)).toBe('deny');
      expect(await goAuthUser(identity, identity, 'wrong')).toBe(403);
      expect(await emqxAuth(identity, identity, '')).toBe('deny');
      expect(await emqxAuth('demo:no-such-device', 'demo:no-such-device', secret)).toBe('deny');
      expect(await goAuthUser('demo:no-such-device', 'demo:no-such-device', secret)).toBe(403);
      // The right secret under another client id (b's: it would take b's session over).
      expect(await emqxAuth(id(b), identity, secret)).toBe('deny');
      expect(await goAuthUser(`${identity}-2`, identity, secret)).toBe(403);
      expect(await emqxAuth(`web:demo:x`, identity, secret)).toBe('deny');
      // mosquitto-go-auth's params_mode form.
      const form = await call(server, 'POST', '/api/iot/mqtt/user', {
        body: new URLSearchParams({
          username: identity,
          password: secret,
          clientid: identity,
        }).toString(),
        headers: { ...brokerHeaders, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(200);
    },
  );

  it.skipIf(!available)('refuses callers without the shared secret', async () => {
    const identity = id(a);
    const secret = secrets.get(identity)!;
    const refused: Record<string, string>[] = [
      {},
      { 'x-mqtt-auth-secret': `${SECRET}x` },
      { authorization: basic('nope') },
      { authorization: `Bearer ${SECRET.slice(1)}` },
    ];
    for (const headers of refused) {
      expect(await emqxAuth(identity, identity, secret, headers)).toBe('deny');
      const user = await post(
        '/api/iot/mqtt/user',
        { username: identity, password: secret, clientid: identity },
        headers,
      );
      expect(user.status).toBe(403);
      expect(
        await post(
          '/api/iot/mqtt/acl',
          {
            clientid: identity,
            username: identity,
            topic: deviceTopic('demo', a.deviceNo, 'telemetry'),
            action: 'publish',
          },
          headers,
        ).then((response) => response.body.result),
      ).toBe('deny');
      expect(
        (await post('/api/iot/mqtt/superuser', { username: SERVER_USER }, headers)).status,
      ).toBe(403);
    }
    // The secret as Basic auth password (mosquitto-go-auth) or a bearer token.
    expect(await emqxAuth(identity, identity, secret, { authorization: basic(SECRET) })).toBe(
      'allow',
    );
    expect(await emqxAuth(identity, identity, secret, { authorization: `Bearer ${SECRET}` })).toBe(
      'allow',
    );

    // Unset, the hooks refuse whatever the broker sends.
    const unset = new ExternalAuthService({
      config: {
        mqttAuthSecret: undefined,
        mqttUsername: SERVER_USER,
        mqttPassword: SERVER_PASSWORD,
      },
      tokens: new AccessTokens('another-key'),
      devices: server.app.deviceCredentials,
      browsers: server.app.browserAccess,
    });
    expect(unset.configured).toBe(false);
    expect(unset.fromBroker({ 'x-mqtt-auth-secret': '' })).toBe(false);
    expect(unset.fromBroker({ authorization: basic('') })).toBe(false);
    expect(unset.fromBroker({})).toBe(false);
  });

  it.skipIf(!available)('confines a device to its own topics', async () => {
    const own = (channel: 'telemetry' | 'event' | 'cmd' | 'cmd/ack' | 'status') =>
      deviceTopic('demo', a.deviceNo, channel);
    expect(await deviceAcl(a, own('telemetry'), 'publish')).toBe('allow');
    expect(await deviceAcl(a, own('cmd/ack'), 'publish')).toBe('allow');
    expect(await deviceAcl(a, own('status'), 'publish')).toBe('allow');
    // Commands come from the server only.
    expect(await deviceAcl(a, own('cmd'), 'publish')).toBe('deny');
    expect(await deviceAcl(a, deviceTopic('demo', b.deviceNo, 'telemetry'), 'publish')).toBe(
      'deny',
    );
    expect(await deviceAcl(a, deviceTopic('acme', other.deviceNo, 'telemetry'), 'publish')).toBe(
      'deny',
    );
    expect(await deviceAcl(a, deviceTopic('acme', a.deviceNo, 'telemetry'), 'publish')).toBe(
      'deny',
    );
    expect(await deviceAcl(a, own('cmd'), 'subscribe')).toBe('allow');
    expect(await deviceAcl(a, deviceTopic('demo', b.deviceNo, 'cmd'), 'subscribe')).toBe('deny');
    expect(await deviceAcl(a, 't/demo/d/+/cmd', 'subscribe')).toBe('deny');
    expect(await deviceAcl(a, '#', 'subscribe')).toBe('deny');
    expect(await deviceAcl(a, `$share/g/${own('cmd')}`, 'subscribe')).toBe('deny');
    // A client id that is not its username names no device.
    expect(await emqxAcl(id(b), id(a), own('telemetry'), 'publish')).toBe('deny');

    // mosquitto-go-auth: 1 read (delivery), 2 write, 3 both, 4 subscribe.
    expect(await goAuthAcl(id(a), id(a), own('telemetry'), 2)).toBe(200);
    expect(await goAuthAcl(id(a), id(a), deviceTopic('demo', b.deviceNo, 'telemetry'), 2)).toBe(
      403,
    );
    expect(await goAuthAcl(id(a), id(a), own('cmd'), 4)).toBe(200);
    expect(await goAuthAcl(id(a), id(a), own('cmd'), 1)).toBe(200);
    expect(await goAuthAcl(id(a), id(a), deviceTopic('demo', b.deviceNo, 'cmd'), 4)).toBe(403);
    expect(await goAuthAcl(id(a), id(a), deviceTopic('demo', b.deviceNo, 'cmd'), 1)).toBe(403);
    expect(await goAuthAcl(id(a), id(a), own('cmd'), 3)).toBe(403);
    expect(await goAuthAcl(id(a), id(a), own('cmd'), 9)).toBe(403);
    // Neither shape: refused with a status both brokers read as "no".
    expect(
      await post('/api/iot/mqtt/acl', { clientid: id(a), topic: own('telemetry') }),
    ).toMatchObject({ status: 403 });
  });

  it.skipIf(!available)(
    "refuses browsers: they use the node's /mqtt, which follows their session, grants and zones",
    async () => {
      const clientid = `web:demo:${crypto.randomBytes(4).toString('hex')}`;
      // A live token of the right account is not enough: the broker could not end the
      // connection with the session, nor filter each delivery by the user's zones.
      expect(await emqxAuth(clientid, 'admin', token)).toBe('deny');
      expect(await goAuthUser(clientid, 'admin', token)).toBe(403);
      expect(await emqxAcl(clientid, 'admin', 't/demo/d/+/+', 'subscribe')).toBe('deny');
      expect(await emqxAcl(clientid, 'admin', `t/demo/u/${adminId}/notify`, 'subscribe')).toBe(
        'deny',
      );
      expect(await goAuthAcl(clientid, 'admin', 't/demo/alarm/x', 1)).toBe(403);
    },
  );

  it.skipIf(!available)("gives the server's own identity the consumer's rights", async () => {
    const clientid = 'shuili-abcd1234-work0';
    expect(await emqxAuth(clientid, SERVER_USER, SERVER_PASSWORD)).toBe('allow');
    expect(await goAuthUser(clientid, SERVER_USER, SERVER_PASSWORD)).toBe(200);
    // Under a device's id too: that is how it ends a revoked device's session.
    expect(await emqxAuth(id(a), SERVER_USER, SERVER_PASSWORD)).toBe('allow');
    expect(await emqxAuth(clientid, SERVER_USER, 'wrong')).toBe('deny');
    expect(await emqxAuth('web:demo:x', SERVER_USER, SERVER_PASSWORD)).toBe('deny');

    const superuser = (username: string) => post('/api/iot/mqtt/superuser', { username });
    expect((await superuser(SERVER_USER)).status).toBe(200);
    expect((await superuser(id(a))).status).toBe(403);
    expect((await superuser('admin')).status).toBe(403);

    const acl = (topic: string, action: 'publish' | 'subscribe') =>
      emqxAcl(clientid, SERVER_USER, topic, action);
    expect(await acl('$share/shuili/t/+/d/+/telemetry', 'subscribe')).toBe('allow');
    expect(await acl('$share/shuili/t/+/d/+/cmd/ack', 'subscribe')).toBe('allow');
    expect(await acl('t/+/d/+/status', 'subscribe')).toBe('allow');
    expect(await acl('t/demo/#', 'subscribe')).toBe('allow');
    expect(await acl('#', 'subscribe')).toBe('deny');
    expect(await acl('$SYS/#', 'subscribe')).toBe('deny');
    expect(await acl(deviceTopic('demo', a.deviceNo, 'cmd'), 'publish')).toBe('allow');
    expect(await acl('t/demo/alarm', 'publish')).toBe('allow');
    expect(await acl(`t/demo/u/${adminId}/notify`, 'publish')).toBe('allow');
    // A device's own word is never the server's to forge.
    expect(await acl(deviceTopic('demo', a.deviceNo, 'telemetry'), 'publish')).toBe('deny');
    expect(await acl('other/topic', 'publish')).toBe('deny');
    expect(await goAuthAcl(clientid, SERVER_USER, deviceTopic('demo', a.deviceNo, 'cmd'), 2)).toBe(
      200,
    );
  });

  it.skipIf(!available)('stops allowing a revoked or rotated secret at once', async () => {
    const dev = await createTestDevice(server.db, 'demo');
    const identity = id(dev);
    const first = await issueSecret(server, token, dev.deviceId);
    expect(await emqxAuth(identity, identity, first.secret)).toBe('allow');
    // A reconnect storm of one device: every attempt is answered (one query behind them).
    const storm = await Promise.all(
      Array.from({ length: 50 }, () => emqxAuth(identity, identity, first.secret)),
    );
    expect(new Set(storm)).toEqual(new Set(['allow']));

    const second = await issueSecret(server, token, dev.deviceId);
    expect(await emqxAuth(identity, identity, first.secret)).toBe('deny');
    expect(await emqxAuth(identity, identity, second.secret)).toBe('allow');
    const revoked = await call(server, 'POST', '/api/iot/device/revokeDeviceSecret', {
      token,
      body: { id: dev.deviceId },
    });
    expect(revoked.status).toBe(200);
    expect(await emqxAuth(identity, identity, second.secret)).toBe('deny');
    expect(await goAuthUser(identity, identity, second.secret)).toBe(403);
    // Many devices at once, most with wrong secrets: all answered, none let in wrongly.
    const mixed = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? emqxAuth(id(a), id(a), secrets.get(id(a))!)
          : emqxAuth(`demo:storm-${i}`, `demo:storm-${i}`, `s${i}`),
      ),
    );
    mixed.forEach((result, i) => expect(result).toBe(i % 3 === 0 ? 'allow' : 'deny'));
  });
});

describe('authentication gate', () => {
  it('runs a few checks at once and refuses what would queue too long', async () => {
    const gate = new AuthGate({ concurrency: 2, queue: 2, maxWaitMs: 200 });
    let running = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    const task = () =>
      gate.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return 'done';
      });
    const first = [task(), task(), task(), task()];
    // Two running, two waiting: the fifth is refused at once.
    await expect(task()).rejects.toBeInstanceOf(AuthBusyError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(peak).toBe(2);
    release.splice(0).forEach((done) => done());
    await new Promise((resolve) => setTimeout(resolve, 10));
    release.splice(0).forEach((done) => done());
    expect(await Promise.all(first)).toEqual(['done', 'done', 'done', 'done']);
    expect(peak).toBe(2);

    // A waiter whose slot does not come in time gives up.
    const blockers = [task(), task()];
    await expect(task()).rejects.toThrow(/waited too long/);
    await new Promise((resolve) => setTimeout(resolve, 10));
    release.splice(0).forEach((done) => done());
    await Promise.all(blockers);
  });
});

/** Mosquitto (anonymous clients allowed) when the run names one: the take-over of a revoked device. */
const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;

describe.skipIf(!TEST_MQTT_URL)('revoking a device on an external broker', () => {
  let server: TestServer;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        mqttUrl: TEST_MQTT_URL,
        mqttShareGroup: `test${crypto.randomBytes(4).toString('hex')}`,
        mqttConsumers: 1,
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await server?.close();
  });

  it("ends the device's session on the broker", async () => {
    const token = await adminToken(server);
    const dev = await createTestDevice(server.db, 'demo');
    const issued = await issueSecret(server, token, dev.deviceId);
    // Issuing ends a session of the old secret too: let that take-over pass first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const device = await connectClient(TEST_MQTT_URL!, {
      clientId: issued.username,
      username: issued.username,
      password: issued.secret,
    });
    clients.push(device);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(device.connected).toBe(true);
    const gone = closed(device);
    const revoked = await call(server, 'POST', '/api/iot/device/revokeDeviceSecret', {
      token,
      body: { id: dev.deviceId },
    });
    expect(revoked.status).toBe(200);
    await gone;
    expect(device.connected).toBe(false);
  });
});
