import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { deviceIdentity, deviceTopic } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';
import type { Config } from '../config';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken, connectClient, issueSecret, tcpUrl } from './mqtt-test-clients';

/** The throw-away certificate is made with Debian's openssl CLI; without it the suite is skipped. */
const OPENSSL = spawnSync('openssl', ['version']).status === 0;
const SUITE = OPENSSL
  ? 'embedded MQTT broker over TLS'
  : 'embedded MQTT broker over TLS (skipped: the openssl CLI is not installed, no certificate to test with)';

/** A self-signed certificate for localhost / 127.0.0.1 and its key, valid one day. */
function makeCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}-cert.pem`);
  const key = path.join(dir, `${name}-key.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}

/**
 * Starts the real server with these settings and a real pino logger (warnings and up) writing
 * into `lines`: the transport logs through app.log when it starts, after this replaced it.
 */
function startWithLog(config: Partial<Config>, lines: string[]): Promise<TestServer> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return startTestServer({
    config,
    beforeListen: async (app) => {
      app.log = pino({ level: 'warn' }, sink);
    },
  });
}

/** The log lines about the TLS listener, as their messages. */
const tlsMessages = (lines: string[]) =>
  lines.map((line) => JSON.parse(line).msg as string).filter((msg) => /TLS/.test(msg));

describe.skipIf(!OPENSSL)(SUITE, () => {
  let dir: string;
  let cert: string;
  let key: string;
  let ca: Buffer;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-tls-'));
    ({ cert, key } = makeCertificate(dir, 'broker'));
    ca = await fs.readFile(cert);
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  describe('with MQTT_TLS_CERT and MQTT_TLS_KEY', () => {
    let server: TestServer;
    let device: TestDevice;
    let identity: string;
    let secret: string;
    const log: string[] = [];
    const clients: MqttClient[] = [];
    const tlsUrl = () => `mqtts://127.0.0.1:${server.app.deviceTransport.endpoints().tlsPort}`;

    beforeAll(async () => {
      server = await startWithLog({ mqttTlsCert: cert, mqttTlsKey: key, mqttTlsPort: 0 }, log);
      device = await createTestDevice(server.db, 'demo');
      identity = deviceIdentity(device.tenantCode, device.deviceNo);
      secret = (await server.app.deviceCredentials.reset(device.tenantId, device.deviceId)).secret;
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    });
    afterAll(async () => server?.close());

    it('listens on an ephemeral TLS port of its own and tells devices the mqtts URL', async () => {
      const { tcpPort, tlsPort } = server.app.deviceTransport.endpoints();
      expect(tlsPort).toBeGreaterThan(0);
      expect(tlsPort).not.toBe(8883);
      expect(tlsPort).not.toBe(tcpPort);
      expect(tlsMessages(log)).toEqual([]);

      const other = await createTestDevice(server.db, 'demo');
      const issued = await issueSecret(server, await adminToken(server), other.deviceId);
      expect(issued.brokerUrls).toContain(tlsUrl());
      expect(issued.brokerUrls).toContain(tcpUrl(server));
    });

    it('a device trusting the certificate connects with its own secret and gets its PUBACK', async () => {
      const client = await connectClient(tlsUrl(), {
        ca,
        clientId: identity,
        username: identity,
        password: secret,
      });
      clients.push(client);
      const socket = client.stream as TLSSocket;
      expect(socket.encrypted).toBe(true);
      expect(socket.authorized).toBe(true);
      expect(socket.getPeerCertificate().subject.CN).toBe('localhost');

      const pubacks: number[] = [];
      client.on('packetreceive', (packet) => {
        if (packet.cmd === 'puback' && packet.messageId !== undefined)
          pubacks.push(packet.messageId);
      });
      const sent = await client.publishAsync(
        deviceTopic('demo', device.deviceNo, 'telemetry'),
        JSON.stringify({ values: { flow: 12.5 } }),
        { qos: 1 },
      );
      expect(sent?.messageId).toBeDefined();
      expect(pubacks).toEqual([sent!.messageId]);

      // The PUBACK means stored (DESIGN §6): the reading is there already.
      const stored = await server.db.system((sql) =>
        sql.query<{ value: number }>(
          `SELECT value FROM iot_telemetry_latest WHERE device_id = $1 AND key = 'flow'`,
          [device.deviceId],
        ),
      );
      expect(stored.rows.map((row) => Number(row.value))).toEqual([12.5]);
    });

    it('a client not trusting the certificate is refused by the TLS handshake', async () => {
      await expect(
        connectClient(tlsUrl(), { clientId: identity, username: identity, password: secret }),
      ).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      // Nor does a certificate of another issuer stand in for it.
      const stranger = makeCertificate(dir, 'stranger');
      await expect(
        connectClient(tlsUrl(), {
          ca: await fs.readFile(stranger.cert),
          clientId: identity,
          username: identity,
          password: secret,
        }),
      ).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    });

    it('a wrong secret over TLS is refused with CONNACK bad user name or password', async () => {
      await expect(
        connectClient(tlsUrl(), { ca, clientId: identity, username: identity, password: 'x' }),
      ).rejects.toMatchObject({ code: 4 });
    });
  });

  describe('when the TLS listener cannot start', () => {
    /** The server comes up, says why in one line and serves HTTP and plain MQTT without TLS. */
    async function expectRunsWithoutTls(config: Partial<Config>, reason: RegExp): Promise<void> {
      const log: string[] = [];
      const server = await startWithLog(config, log);
      try {
        const messages = tlsMessages(log);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatch(reason);
        expect(messages[0]).not.toContain('\n');
        const { tcpPort, tlsPort } = server.app.deviceTransport.endpoints();
        expect(tlsPort).toBeUndefined();
        expect(tcpPort).toBeGreaterThan(0);

        const device = await createTestDevice(server.db, 'demo');
        const issued = await issueSecret(server, await adminToken(server), device.deviceId);
        expect(issued.brokerUrls.some((url) => url.startsWith('mqtts:'))).toBe(false);
        const client = await connectClient(tcpUrl(server), {
          clientId: issued.username,
          username: issued.username,
          password: issued.secret,
        });
        try {
          await client.publishAsync(
            deviceTopic('demo', device.deviceNo, 'telemetry'),
            JSON.stringify({ values: { flow: 1 } }),
            { qos: 1 },
          );
        } finally {
          await client.endAsync(true);
        }
      } finally {
        await server.close();
      }
    }

    it('a key file that cannot be read', async () => {
      await expectRunsWithoutTls(
        { mqttTlsCert: cert, mqttTlsKey: path.join(dir, 'missing-key.pem'), mqttTlsPort: 0 },
        /^MQTT TLS listener not started, MQTT_TLS_KEY unusable \(ENOENT: .*missing-key\.pem'\)/,
      );
    });

    it("a key that is not the certificate's", async () => {
      const stranger = makeCertificate(dir, 'mismatch');
      await expectRunsWithoutTls(
        { mqttTlsCert: cert, mqttTlsKey: stranger.key, mqttTlsPort: 0 },
        /^MQTT TLS listener not started, MQTT_TLS_CERT \/ MQTT_TLS_KEY unusable \(.*key values mismatch/,
      );
    });

    it('a busy TLS port', async () => {
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, resolve));
      const port = (taken.address() as net.AddressInfo).port;
      try {
        await expectRunsWithoutTls(
          { mqttTlsCert: cert, mqttTlsKey: key, mqttTlsPort: port },
          new RegExp(`^MQTT port ${port} is in use .*set MQTT_TLS_PORT`),
        );
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });
  });
});
