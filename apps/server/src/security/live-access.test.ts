import crypto from 'node:crypto';
import {
  alarmRecordEntity,
  devicePushTopic,
  entityCalls,
  iotDeviceEntity,
  sysTenantEntity,
  sysUserEntity,
  TELEMETRY_CALLS,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import {
  brokerAllows,
  closesWithin,
  connectClient,
  deviceOnBroker,
  inbox,
  issueSecret,
  startExternalBrokerServer,
  tcpUrl,
  TEST_MQTT_URL,
  wsUrl,
} from '../mqtt/mqtt-test-clients';
import { addDemoUser } from './demo-user';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { alarmRepo } from '../modules/iot/alarm/alarm.repo';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';

/**
 * Access that changes takes effect at once (issue 15): a role taken away, zones assigned, a
 * tenant suspended or a session ended holds at the caller's next request and on their live MQTT
 * connection, because the guard and the broker read live state (AccessChecks, SessionChecks)
 * that the database announces as it changes, never what the token said.
 */
const DEADLINE_MS = 2_000;

describe.each(BACKENDS)(
  'access changes take effect at once on $backend',
  ({ backend, available }) => {
    let server: TestServer;
    let admin: string;
    let demoId: string;
    const clients: MqttClient[] = [];
    let zoned: { d2: TestDevice; d3: TestDevice; zone2: string; zone3: string };

    const roleId = async (code: string) =>
      (
        await server.db.system((sql) =>
          sql.query<{ id: string }>(
            `SELECT r.id::text FROM sys_role r WHERE r.tenant_id = $1 AND r.role_code = $2`,
            [demoId, code],
          ),
        )
      ).rows[0]!.id;

    const demoUser = (roleCodes: string[]) => addDemoUser(server, admin, roleCodes);

    async function browser(token: string, tenant = 'demo') {
      const client = await connectClient(wsUrl(server), {
        clientId: `web:${tenant}:${crypto.randomBytes(4).toString('hex')}`,
        username: 'browser',
        password: token,
      });
      clients.push(client);
      return client;
    }

    const publish = (topic: string) =>
      server.app.deviceTransport.publishLive(topic, JSON.stringify({ at: Date.now() }));
    const telemetryOf = (device: TestDevice) => `t/demo/d/${device.deviceNo}/telemetry`;
    const bellOf = (userId: string) => `t/demo/u/${userId}/notify`;

    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer({ backend });
      admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      demoId = (
        await server.db.system((sql) =>
          sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
        )
      ).rows[0]!.id;
      // Two zones (zone 3 with a sub-zone) and a device in each, as an installer would place them.
      const zones = await server.db.system(async (sql) => {
        const add = async (code: string, parent: string | null) =>
          (
            await sql.query<{ id: string }>(
              `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_sequence, zone_parent)
             VALUES ($1, $2, $2, 0, $3) RETURNING id::text`,
              [demoId, code, parent],
            )
          ).rows[0]!.id;
        const zone2 = await add('LIVE-Z2', null);
        const zone3 = await add('LIVE-Z3', null);
        const zone3a = await add('LIVE-Z3A', zone3);
        return { zone2, zone3, zone3a };
      });
      const d2 = await createTestDevice(server.db, 'demo');
      const d3 = await createTestDevice(server.db, 'demo');
      await server.db.system(async (sql) => {
        await sql.query('UPDATE iot_device SET zone_id = $2 WHERE id = $1', [
          d2.deviceId,
          zones.zone2,
        ]);
        // In a sub-zone of zone 3: a user of zone 3 reaches it.
        await sql.query('UPDATE iot_device SET zone_id = $2 WHERE id = $1', [
          d3.deviceId,
          zones.zone3a,
        ]);
      });
      zoned = { d2, d3, zone2: zones.zone2, zone3: zones.zone3 };
    });

    afterAll(async () => {
      for (const client of clients) client.end(true);
      await server?.close();
    });

    it.skipIf(!available)(
      'a demoted administrator is refused at the next request and cannot grant the role back',
      async () => {
        const user = await demoUser(['ROLE_ADMIN']);
        const users = entityCalls(sysUserEntity).query;
        expect((await call(server, 'GET', users, { token: user.token })).status).toBe(200);

        const demoted = await call(server, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
          token: admin,
          body: { userId: user.id, roleIds: [await roleId('ROLE_OPERATOR')] },
        });
        expect(demoted.status).toBe(200);

        // The same, unexpired token: its roles claim says ROLE_ADMIN, the live state does not.
        expect((await call(server, 'GET', users, { token: user.token })).status).toBe(403);
        const regrant = await call(server, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
          token: user.token,
          body: { userId: user.id, roleIds: [await roleId('ROLE_ADMIN')] },
        });
        expect(regrant.status).toBe(403);
        const asAdmin = await call(server, 'GET', users, {
          token: user.token,
          headers: { 'x-role-code': 'ROLE_ADMIN-token' },
        });
        expect(asAdmin.status).toBe(403);
        const roles = await server.db.system((sql) =>
          sql.query('SELECT role_id FROM sys_user_role WHERE user_id = $1', [user.id]),
        );
        expect(roles.rows).toHaveLength(1);
      },
    );

    it.skipIf(!available)('a disabled or deleted role stops granting at once', async () => {
      const { token, roleId: role } = await noGrantUser(server, `live${backend}`);
      const devices = entityCalls(iotDeviceEntity).query;
      expect((await call(server, 'GET', devices, { token })).status).toBe(403);
      const url = await server.db.system((sql) =>
        sql.query<{ id: string }>(
          `SELECT id::text FROM sys_url WHERE tenant_id = $1 AND url = $2`,
          [demoId, devices],
        ),
      );
      const granted = await call(server, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
        token: admin,
        body: { roleId: role, urlIds: [url.rows[0]!.id] },
      });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      expect((await call(server, 'GET', devices, { token })).status).toBe(200);

      const disabled = await call(server, 'POST', '/api/admin/sysrole/updateSysRoleStatus', {
        token: admin,
        body: { ids: [role], status: 0 },
      });
      expect(disabled.status).toBe(200);
      expect((await call(server, 'GET', devices, { token })).status).toBe(403);
    });

    it.skipIf(!available)(
      'a user confined to a zone reads, controls and exports only the devices of that zone',
      async () => {
        const operator = await demoUser(['ROLE_OPERATOR']);
        const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
          token: admin,
          query: { userId: operator.id, zoneIds: zoned.zone2 },
        });
        expect(assigned.status).toBe(200);
        const { d2, d3 } = zoned;
        const as = (token: string, method: 'GET' | 'POST', url: string, extra = {}) =>
          call(server, method, url, { token, ...extra });

        const list = await as(operator.token, 'GET', entityCalls(iotDeviceEntity).query, {
          query: { pageSize: '500' },
        });
        expect(list.status).toBe(200);
        const numbers = (list.body.data.list as Array<{ deviceNo: string }>).map((d) => d.deviceNo);
        expect(numbers).toContain(d2.deviceNo);
        expect(numbers).not.toContain(d3.deviceNo);
        // An administrator without zones sees both.
        const all = await as(admin, 'GET', entityCalls(iotDeviceEntity).query, {
          query: { pageSize: '500' },
        });
        const allNumbers = (all.body.data.list as Array<{ deviceNo: string }>).map(
          (d) => d.deviceNo,
        );
        expect(allNumbers).toEqual(expect.arrayContaining([d2.deviceNo, d3.deviceNo]));

        for (const [method, url, extra] of [
          ['GET', '/api/iot/device/queryDeviceDetail', { query: { id: d3.deviceId } }],
          ['GET', TELEMETRY_CALLS.latest, { query: { deviceId: d3.deviceId } }],
          [
            'GET',
            TELEMETRY_CALLS.history,
            {
              query: {
                deviceId: d3.deviceId,
                start: new Date(Date.now() - 3_600_000).toISOString(),
                end: new Date().toISOString(),
              },
            },
          ],
          [
            'POST',
            '/api/iot/command/sendCommand',
            { body: { deviceId: d3.deviceId, name: 'open', params: {} } },
          ],
        ] as const) {
          const other = await as(operator.token, method, url, extra);
          expect(
            [400, 403, 404],
            `${url}: ${other.status} ${JSON.stringify(other.body)}`,
          ).toContain(other.status);
          if (method !== 'GET') continue;
          const own = await as(operator.token, method, url, {
            query: {
              ...extra.query,
              ...('id' in extra.query ? { id: d2.deviceId } : { deviceId: d2.deviceId }),
            },
          });
          expect(own.status, `${url} of its own zone: ${JSON.stringify(own.body)}`).toBe(200);
        }
        expect(
          (
            await server.db.system((sql) =>
              sql.query('SELECT 1 FROM iot_command WHERE device_id = $1', [d3.deviceId]),
            )
          ).rows,
        ).toHaveLength(0);

        // Alarm records are confined with their devices.
        await server.db.system((sql) =>
          sql.query(
            `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, threshold, state, started_at)
           SELECT tenant_id, id, 'flow', 'red', 1, 0, 'open', now() FROM iot_device WHERE id = ANY($1::bigint[])`,
            [[d2.deviceId, d3.deviceId]],
          ),
        );
        const alarms = await as(operator.token, 'GET', entityCalls(alarmRecordEntity).query, {
          query: { pageSize: '500' },
        });
        expect(alarms.status).toBe(200);
        const alarmDevices = (alarms.body.data.list as Array<{ deviceId: string }>).map((row) =>
          String(row.deviceId),
        );
        expect(alarmDevices).toContain(d2.deviceId);
        expect(alarmDevices).not.toContain(d3.deviceId);

        // Acknowledging is confined the same way, all or none; and the bell counts only the
        // alarms of the zone (a notice of the other zone's alarm, as one given before the user
        // was confined, stays off it).
        const alarmOf = async (deviceId: string) =>
          (
            await server.db.system((sql) =>
              sql.query<{ id: string }>(
                'SELECT id::text FROM iot_alarm_record WHERE device_id = $1',
                [deviceId],
              ),
            )
          ).rows[0]!.id;
        const [own2, other3] = [await alarmOf(d2.deviceId), await alarmOf(d3.deviceId)];
        await server.db.system((sql) =>
          sql.query(
            `INSERT INTO notification (tenant_id, title, content, type, publish_scope, publish_targets, alarm_id)
             SELECT a.tenant_id, 'alarm', '<p>alarm</p>', 'notice', 'users', ARRAY[$2::bigint], a.id
               FROM iot_alarm_record a WHERE a.id = ANY ($1::bigint[])`,
            [[own2, other3], operator.id],
          ),
        );
        const bell = await as(
          operator.token,
          'GET',
          '/api/notification/notification/queryHeadNotification',
        );
        expect(bell.body.data.alarms).toBe(1);
        const ack = (ids: string[]) =>
          as(operator.token, 'POST', '/api/iot/alarm/acknowledgeAlarm', {
            body: { ids, comment: 'seen' },
          });
        expect((await ack([own2, other3])).status).toBe(404);
        expect((await ack([other3])).status).toBe(404);
        const untouched = await server.db.system((sql) =>
          sql.query(
            'SELECT 1 FROM iot_alarm_record WHERE id = ANY ($1::bigint[]) AND acknowledged_at IS NOT NULL',
            [[own2, other3]],
          ),
        );
        expect(untouched.rows).toHaveLength(0);
        expect((await ack([own2])).status).toBe(200);

        // The export is the list's: the other zone's device is not in it.
        const exported = await as(operator.token, 'POST', entityCalls(iotDeviceEntity).exportCsv);
        expect(exported.status).toBe(200);
        expect(String(exported.body)).toContain(d2.deviceNo);
        expect(String(exported.body)).not.toContain(d3.deviceNo);
      },
    );

    it.skipIf(!available)(
      'a confined administrator cannot widen anyone: zones, zone tree, devices and rules stay inside',
      async () => {
        const { d2, d3, zone2, zone3 } = zoned;
        const boss = await demoUser(['ROLE_ADMIN']);
        const other = await demoUser(['ROLE_OPERATOR']);
        const assign = (token: string, userId: string, zoneIds: string) =>
          call(server, 'POST', '/api/admin/syszone/assignZone', {
            token,
            query: { userId, zoneIds },
          });
        expect((await assign(admin, boss.id, zone2)).status).toBe(200);

        // Never themselves, never a zone of someone else's, never "no zones" (the whole tenant).
        for (const [userId, zones] of [
          [boss.id, `${zone2},${zone3}`],
          [other.id, zone3],
          [other.id, ''],
        ] as const) {
          const refused = await assign(boss.token, userId, zones);
          expect(refused.status, `${userId} ${zones}`).toBe(403);
          expect(refused.body.errors[0].field).toBe('zoneIds');
        }
        // Nor does it confine someone who sees more than it does (scope-confinement.ts
        // checkManageable); inside its zones, the same user is its to manage.
        expect((await assign(boss.token, other.id, zone2)).status).toBe(403);
        expect((await assign(admin, other.id, zone2)).status).toBe(200);
        expect((await assign(boss.token, other.id, zone2)).status).toBe(200);

        // Moving zone 3 under zone 2 would bring d3 along.
        const moved = await call(server, 'PUT', '/api/admin/syszone/updateZone', {
          token: boss.token,
          body: { id: zone3, zoneParent: zone2 },
        });
        expect(moved.status).toBe(403);
        // Its own device cannot be moved out of reach, nor can a rule cover every zone's devices.
        const away = await call(server, 'PUT', entityCalls(iotDeviceEntity).update, {
          token: boss.token,
          body: { id: d2.deviceId, zoneId: zone3 },
        });
        expect(away.status, JSON.stringify(away.body)).toBe(403);
        const productWide = await call(server, 'POST', '/api/iot/alarm/addAlarmRule', {
          token: boss.token,
          body: {
            ruleName: 'Every device',
            productId: d3.productId,
            propertyKey: 'flow',
            kind: 'above',
            high: 1,
            level: 'red',
          },
        });
        expect(productWide.status, JSON.stringify(productWide.body)).toBe(403);
        const zoneOf = await server.db.system((sql) =>
          sql.query<{ zone_id: string; zone_parent: string | null }>(
            `SELECT d.zone_id::text, z.zone_parent::text FROM iot_device d, sys_zone z
              WHERE d.id = $1 AND z.id = $2`,
            [d2.deviceId, zone3],
          ),
        );
        expect(zoneOf.rows[0]).toEqual({ zone_id: zone2, zone_parent: null });

        // A zone users are confined to cannot be deleted (they would fall back to everything).
        const deleted = await call(server, 'POST', '/api/admin/syszone/deleteZone', {
          token: admin,
          body: { id: [zone2] },
        });
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(409);
      },
    );

    it.skipIf(!available)(
      "an alarm's bell goes only to the users who may see the device's alarms",
      async () => {
        const { d2, d3 } = zoned;
        const operator = await demoUser(['ROLE_OPERATOR']);
        await call(server, 'POST', '/api/admin/syszone/assignZone', {
          token: admin,
          query: { userId: operator.id, zoneIds: zoned.zone2 },
        });
        const { token: blindToken } = await noGrantUser(server, `bell${backend}`);
        const idOf = async (token: string) =>
          String((await call(server, 'GET', '/api/uaa/users/getSysUser', { token })).body.data.id);
        const blindId = await idOf(blindToken);
        const adminId = await idOf(admin);
        const recipients = (device: TestDevice) =>
          server.db.tenant(demoId, (sql) =>
            alarmRepo.recipients(sql, device.deviceId, entityCalls(alarmRecordEntity).query),
          );
        const ofD2 = await recipients(d2);
        const ofD3 = await recipients(d3);
        expect(ofD2).toEqual(expect.arrayContaining([operator.id, adminId]));
        expect(ofD3).toContain(adminId);
        expect(ofD3).not.toContain(operator.id);
        expect([...ofD2, ...ofD3]).not.toContain(blindId);
      },
    );

    it.skipIf(!available)(
      'live data follows the same grants and zones, and follows them as they change',
      async () => {
        const { d2, d3 } = zoned;
        // A role without device grants: its browser connects (its bell works) but hears no device.
        const { token: noGrantToken } = await noGrantUser(server, `livemqtt${backend}`);
        const noGrantId = (
          await call(server, 'GET', '/api/uaa/users/getSysUser', { token: noGrantToken })
        ).body.data.id as string;
        const blind = await browser(noGrantToken);
        const blindInbox = inbox(blind);
        await blind.subscribeAsync(['t/demo/d/+/+', 't/demo/alarm/+', bellOf(String(noGrantId))]);
        await publish(telemetryOf(d2));
        await publish(devicePushTopic('demo', 'alarm', d2.deviceNo));
        await publish(bellOf(String(noGrantId)));
        expect(await blindInbox.until(bellOf(String(noGrantId)))).toEqual([]);

        // An operator of zone 2 hears zone 2's device, not zone 3's.
        const operator = await demoUser(['ROLE_OPERATOR']);
        await call(server, 'POST', '/api/admin/syszone/assignZone', {
          token: admin,
          query: { userId: operator.id, zoneIds: zoned.zone2 },
        });
        const watcher = await browser(operator.token);
        const heard = inbox(watcher);
        await watcher.subscribeAsync(['t/demo/d/+/+', 't/demo/alarm/+', bellOf(operator.id)]);
        await publish(telemetryOf(d3));
        await publish(devicePushTopic('demo', 'alarm', d3.deviceNo));
        await publish(telemetryOf(d2));
        expect(await heard.until(telemetryOf(d2))).toEqual([]);

        // Reassigned to zone 3 (whose sub-zone holds d3): the open connection follows at once.
        await call(server, 'POST', '/api/admin/syszone/assignZone', {
          token: admin,
          query: { userId: operator.id, zoneIds: zoned.zone3 },
        });
        // Each round: d3's reading, then the bell as a marker (one connection keeps the order).
        const deadline = Date.now() + DEADLINE_MS;
        let moved = false;
        while (!moved && Date.now() < deadline) {
          await publish(telemetryOf(d3));
          await publish(bellOf(operator.id));
          moved = (await heard.until(bellOf(operator.id))).includes(telemetryOf(d3));
        }
        expect(moved, 'the live filter follows the new zone within 2 s').toBe(true);
        await publish(telemetryOf(d2));
        await publish(bellOf(operator.id));
        expect(await heard.until(bellOf(operator.id))).toEqual([]);
      },
    );

    it.skipIf(!available)(
      "a signed-out session's live connection closes; so does a session-less reconnect",
      async () => {
        const user = await demoUser(['ROLE_OPERATOR']);
        const live = await browser(user.token);
        const ended = closesWithin(live);
        const logout = await call(server, 'POST', '/api/uaa/oauth/logout', { token: user.token });
        expect(logout.status).toBe(200);
        expect(await ended).toBe(true);
        await expect(browser(user.token)).rejects.toThrow();
      },
    );

    it.skipIf(!available)(
      "a suspended tenant's tokens, devices and browsers all stop within 2 s",
      async () => {
        const acmeAdmin = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
        const device = await createTestDevice(server.db, 'acme');
        const issued = await issueSecret(server, acmeAdmin, device.deviceId);
        const connectDevice = () =>
          connectClient(tcpUrl(server), {
            clientId: issued.username,
            username: issued.username,
            password: issued.secret,
          });
        const deviceConnection = await connectDevice();
        clients.push(deviceConnection);
        const acmeBrowser = await browser(acmeAdmin, 'acme');
        expect(
          (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: acmeAdmin })).status,
        ).toBe(200);

        const platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
        const acmeId = (
          await server.db.system((sql) =>
            sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'acme'`),
          )
        ).rows[0]!.id;
        const deviceGone = closesWithin(deviceConnection);
        const browserGone = closesWithin(acmeBrowser);
        const suspended = await call(server, 'POST', entityCalls(sysTenantEntity).status, {
          token: platform,
          body: { ids: [acmeId], status: 0 },
        });
        expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
        try {
          expect(await Promise.all([deviceGone, browserGone])).toEqual([true, true]);
          expect(
            (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: acmeAdmin })).status,
          ).toBe(401);
          await expect(connectDevice()).rejects.toThrow();
        } finally {
          await call(server, 'POST', entityCalls(sysTenantEntity).status, {
            token: platform,
            body: { ids: [acmeId], status: 1 },
          });
        }
        // Back in service, the device's secret works again within 2 s (devices retry).
        const until = Date.now() + DEADLINE_MS;
        let again: MqttClient | undefined;
        while (!again && Date.now() < until)
          again = await connectDevice().catch(
            () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100)),
          );
        if (!again) throw new Error('the device could not reconnect after its tenant was resumed');
        clients.push(again);
        expect(again.connected).toBe(true);
      },
    );
  },
);

describe('a browser connection ends with an idle session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { sessionIdleSeconds: 3 } });
  });
  afterAll(async () => server?.close());

  it('closes the MQTT connection when the session goes idle', async () => {
    const token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const client = await connectClient(wsUrl(server), {
      clientId: 'web:demo:idle',
      username: 'browser',
      password: token,
    });
    const started = Date.now();
    expect(await closesWithin(client, 6_000)).toBe(true);
    // Not before the idle limit: its activity was recorded at sign-in.
    expect(Date.now() - started).toBeGreaterThan(1_000);
    expect((await call(server, 'GET', '/api/uaa/users/getSysUser', { token })).status).toBe(401);
  });
});

describe.skipIf(!TEST_MQTT_URL)('access changes on an external broker', () => {
  let server: TestServer;
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    server = await startExternalBrokerServer();
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await server?.close();
  });

  it("a zone-confined browser hears, through the broker's relay, only its zone's devices", async () => {
    const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const [d2, d3] = [
      await createTestDevice(server.db, 'demo'),
      await createTestDevice(server.db, 'demo'),
    ];
    const zone2 = await server.db.system(async (sql) => {
      const zone = (
        await sql.query<{ id: string }>(
          `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_sequence)
           SELECT id, 'EXT-Z2', 'EXT-Z2', 0 FROM tenant WHERE tenant_code = 'demo' RETURNING id::text`,
        )
      ).rows[0]!.id;
      await sql.query('UPDATE iot_device SET zone_id = $2 WHERE id = $1', [d2.deviceId, zone]);
      return zone;
    });
    const { id: operatorId, token } = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token: admin,
      query: { userId: operatorId, zoneIds: zone2 },
    });
    const browser = await connectClient(wsUrl(server), {
      clientId: `web:demo:${crypto.randomBytes(4).toString('hex')}`,
      username: 'browser',
      password: token,
    });
    clients.push(browser);
    const heard = inbox(browser);
    await browser.subscribeAsync('t/demo/d/+/+');
    // A device of each zone publishing through Mosquitto (anonymous there), as devices do.
    const publisher = await connectClient(TEST_MQTT_URL!, {
      clientId: `ext-pub-${crypto.randomBytes(4).toString('hex')}`,
    });
    clients.push(publisher);
    const telemetryOf = (device: TestDevice) => `t/demo/d/${device.deviceNo}/telemetry`;
    const reading = JSON.stringify({ values: { flow: 1 } });
    // The relay subscribes when the browser arrives: publish until it is in place.
    const until = Date.now() + 10_000;
    while (!heard.topics.includes(telemetryOf(d2)) && Date.now() < until) {
      await publisher.publishAsync(telemetryOf(d2), reading, { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await heard.until(telemetryOf(d2));
    await publisher.publishAsync(telemetryOf(d3), reading, { qos: 1 });
    await publisher.publishAsync(telemetryOf(d2), reading, { qos: 1 });
    expect(await heard.until(telemetryOf(d2))).toEqual([]);
  });

  it('its devices are taken off the broker within 2 s and let back in when it resumes', async () => {
    const acmeAdmin = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const device = await createTestDevice(server.db, 'acme');
    const { issued, client: connection } = await deviceOnBroker(server, acmeAdmin, device);
    clients.push(connection);
    const allowed = () => brokerAllows(server, issued.username, issued.secret);
    expect(await allowed()).toBe(true);

    const platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
    const acmeId = (
      await server.db.system((sql) =>
        sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'acme'`),
      )
    ).rows[0]!.id;
    const setStatus = (status: 0 | 1) =>
      call(server, 'POST', entityCalls(sysTenantEntity).status, {
        token: platform,
        body: { ids: [acmeId], status },
      });
    const gone = closesWithin(connection);
    expect((await setStatus(0)).status).toBe(200);
    try {
      expect(await gone).toBe(true);
      expect(await allowed()).toBe(false);
    } finally {
      expect((await setStatus(1)).status).toBe(200);
    }
    const until = Date.now() + DEADLINE_MS;
    let back = false;
    while (!back && Date.now() < until) {
      back = await allowed();
      if (!back) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back, 'the secret works again within 2 s of the resumption').toBe(true);
  });
});
