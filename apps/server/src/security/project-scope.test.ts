import crypto from 'node:crypto';
import {
  alarmRecordEntity,
  entityCalls,
  iotDeviceEntity,
  iotProjectEntity,
  sysUserEntity,
  TELEMETRY_CALLS,
  USER_LINK_CALLS,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, userIdOf } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { connectClient, inbox, wsUrl } from '../mqtt/mqtt-test-clients';
import { alarmRepo } from '../modules/iot/alarm/alarm.repo';
import {
  createTestDevice,
  type TestDevice,
} from '../modules/iot/telemetry/telemetry-test-fixtures';
import { addDemoUser } from './demo-user';

/**
 * Projects confine like zones (issue 16, spec §7 bindUserProject): a user bound to projects sees
 * and controls only those projects' devices, on every device call, list, reading, command, alarm
 * and live subscription; none bound is the whole tenant; a binding holds at the next request and
 * on the open live connection; a confined administrator binds only the projects they hold.
 */
const DEADLINE_MS = 2_000;

describe.each(BACKENDS)('projects confine devices on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let demoId: string;
  /** Two projects of demo with a device each; acme's project, for cross-tenant binds. */
  let p1: string;
  let p2: string;
  let acmeProject: string;
  let d1: TestDevice;
  let d2: TestDevice;
  const clients: MqttClient[] = [];
  const test = it.skipIf(!available);

  const bind = (token: string, userId: string, projectIds: unknown) =>
    call(server, 'POST', USER_LINK_CALLS.bindProjects, {
      token,
      body: { userId, projectIds },
    });
  const deviceNos = async (token: string) => {
    const list = await call(server, 'GET', entityCalls(iotDeviceEntity).query, {
      token,
      query: { pageSize: '500' },
    });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    return (list.body.data.list as Array<{ deviceNo: string }>).map((row) => row.deviceNo);
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const project = async (tenant: string, token: string) => {
      const no = `PRJ-${crypto.randomBytes(3).toString('hex')}`;
      const added = await call(server, 'POST', entityCalls(iotProjectEntity).add, {
        token,
        body: { projectNo: no, projectName: `Project ${no}` },
      });
      if (added.status !== 200) throw new Error(`${tenant}: ${JSON.stringify(added.body)}`);
      return String(added.body.data.id);
    };
    p1 = await project('demo', admin);
    p2 = await project('demo', admin);
    acmeProject = await project(
      'acme',
      (await signIn(server, 'acme', 'admin', 'admin123')).access_token,
    );
    d1 = await createTestDevice(server.db, 'demo');
    d2 = await createTestDevice(server.db, 'demo');
    demoId = d1.tenantId;
    await server.db.system(async (sql) => {
      await sql.query('UPDATE iot_device SET project_id = $2 WHERE id = $1', [d1.deviceId, p1]);
      await sql.query('UPDATE iot_device SET project_id = $2 WHERE id = $1', [d2.deviceId, p2]);
    });
  });

  afterAll(async () => {
    for (const client of clients) client.end(true);
    await server?.close();
  });

  test('queryUserProject and bindUserProject: the list replaces, bad ids name their field', async () => {
    const user = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    const query = (userId?: string) =>
      call(server, 'GET', USER_LINK_CALLS.queryProjects, { token: admin, query: { userId } });

    const none = await query(user.id);
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.data.projectIds).toEqual([]);
    expect(none.body.data.projects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: p1, bound: false, projectName: expect.any(String) }),
      ]),
    );

    expect((await bind(admin, user.id, [p1])).status).toBe(200);
    const bound = await query(user.id);
    expect(bound.body.data.projectIds).toEqual([p1]);
    const byId = new Map(
      (bound.body.data.projects as Array<{ id: string; bound: boolean }>).map((row) => [
        row.id,
        row.bound,
      ]),
    );
    expect([byId.get(p1), byId.get(p2)]).toEqual([true, false]);
    // The user's detail carries them too (the user entity's projectIds link).
    const detail = await call(server, 'GET', '/api/admin/sysuser/queryUserInfoDetail', {
      token: admin,
      query: { id: user.id },
    });
    expect(detail.body.data.projectIds).toEqual([p1]);

    // An unknown project, another tenant's, a malformed id: 400 naming projectIds, nothing changed.
    for (const projectIds of [['987654321987'], [acmeProject], ['p1'], 'not-a-list']) {
      const refused = await bind(admin, user.id, projectIds);
      expect(refused.status, JSON.stringify(projectIds)).toBe(400);
      expect(refused.body.errors[0].field).toBe('projectIds');
    }
    expect((await query(user.id)).body.data.projectIds).toEqual([p1]);
    const missing = await call(server, 'POST', USER_LINK_CALLS.bindProjects, {
      token: admin,
      body: { projectIds: [p1] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('userId');
    const unknownField = await call(server, 'POST', USER_LINK_CALLS.bindProjects, {
      token: admin,
      body: { userId: user.id, projectIds: [p1], zoneIds: [] },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].field).toBe('zoneIds');

    for (const userId of [undefined, 'x']) {
      const refused = await query(userId);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].field).toBe('userId');
    }
    // A user of another tenant is not found: neither read nor bound.
    const acmeUser = await userIdOf(server, 'acme');
    expect((await query(acmeUser)).status).toBe(404);
    expect((await bind(admin, acmeUser, [p1])).status).toBe(404);

    // An empty list unbinds: the user is no longer confined by project.
    expect((await bind(admin, user.id, [])).status).toBe(200);
    expect((await query(user.id)).body.data.projectIds).toEqual([]);
  });

  test('a bound user reads, controls and hears alarms of its projects only; unbinding holds at the next request', async () => {
    const operator = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    expect(await deviceNos(operator.token)).toEqual(
      expect.arrayContaining([d1.deviceNo, d2.deviceNo]),
    );
    expect((await bind(admin, operator.id, [p1])).status).toBe(200);

    const seen = await deviceNos(operator.token);
    expect(seen).toContain(d1.deviceNo);
    expect(seen).not.toContain(d2.deviceNo);
    const hour = {
      start: new Date(Date.now() - 3_600_000).toISOString(),
      end: new Date().toISOString(),
    };
    for (const [method, url, extra] of [
      ['GET', '/api/iot/device/queryDeviceDetail', { query: { id: d2.deviceId } }],
      ['GET', TELEMETRY_CALLS.latest, { query: { deviceId: d2.deviceId } }],
      ['GET', TELEMETRY_CALLS.history, { query: { deviceId: d2.deviceId, ...hour } }],
      [
        'POST',
        '/api/iot/command/sendCommand',
        { body: { deviceId: d2.deviceId, name: 'open', params: {} } },
      ],
    ] as const) {
      const other = await call(server, method, url, { token: operator.token, ...extra });
      expect([400, 403, 404], `${url}: ${other.status} ${JSON.stringify(other.body)}`).toContain(
        other.status,
      );
      if (method !== 'GET') continue;
      const own = await call(server, method, url, {
        token: operator.token,
        query: {
          ...extra.query,
          ...('id' in extra.query ? { id: d1.deviceId } : { deviceId: d1.deviceId }),
        },
      });
      expect(own.status, `${url} of its own project: ${JSON.stringify(own.body)}`).toBe(200);
    }
    const commands = await server.db.system((sql) =>
      sql.query('SELECT 1 FROM iot_command WHERE device_id = $1', [d2.deviceId]),
    );
    expect(commands.rows).toHaveLength(0);

    // Alarm records follow their devices; so does an alarm's bell.
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, threshold, state, started_at)
         SELECT tenant_id, id, 'flow', 'red', 1, 0, 'open', now() FROM iot_device WHERE id = ANY($1::bigint[])`,
        [[d1.deviceId, d2.deviceId]],
      ),
    );
    const alarms = await call(server, 'GET', entityCalls(alarmRecordEntity).query, {
      token: operator.token,
      query: { pageSize: '500' },
    });
    const alarmDevices = (alarms.body.data.list as Array<{ deviceId: string }>).map((row) =>
      String(row.deviceId),
    );
    expect(alarmDevices).toContain(d1.deviceId);
    expect(alarmDevices).not.toContain(d2.deviceId);
    const recipients = (device: TestDevice) =>
      server.db.tenant(demoId, (sql) =>
        alarmRepo.recipients(sql, device.deviceId, entityCalls(alarmRecordEntity).query),
      );
    expect(await recipients(d1)).toContain(operator.id);
    expect(await recipients(d2)).not.toContain(operator.id);

    // Bound to a project and confined to a zone: only the devices inside both.
    const zone = await server.db.system(async (sql) => {
      const id = (
        await sql.query<{ id: string }>(
          `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_sequence)
           VALUES ($1, 'PRJ-Z', $2, 0) RETURNING id::text`,
          [demoId, `PRJ-Z-${crypto.randomBytes(3).toString('hex')}`],
        )
      ).rows[0]!.id;
      await sql.query('UPDATE iot_device SET zone_id = $2 WHERE id = ANY($1::bigint[])', [
        [d1.deviceId, d2.deviceId],
        id,
      ]);
      return id;
    });
    const zoned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token: admin,
      body: { userId: operator.id, zoneIds: [zone] },
    });
    expect(zoned.status, JSON.stringify(zoned.body)).toBe(200);
    expect(await bind(admin, operator.id, [p1, p2])).toMatchObject({ status: 200 });
    expect(await deviceNos(operator.token)).toEqual(
      expect.arrayContaining([d1.deviceNo, d2.deviceNo]),
    );
    await server.db.system((sql) =>
      sql.query('UPDATE iot_device SET zone_id = NULL WHERE id = $1', [d2.deviceId]),
    );
    const both = await deviceNos(operator.token);
    expect(both).toContain(d1.deviceNo);
    expect(both).not.toContain(d2.deviceNo);
    await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token: admin,
      body: { userId: operator.id, zoneIds: [] },
    });

    // Bound to p1 again, then unbound: the very next request sees the whole tenant.
    expect((await bind(admin, operator.id, [p1])).status).toBe(200);
    expect(await deviceNos(operator.token)).not.toContain(d2.deviceNo);
    expect((await bind(admin, operator.id, [])).status).toBe(200);
    expect(await deviceNos(operator.token)).toEqual(
      expect.arrayContaining([d1.deviceNo, d2.deviceNo]),
    );
    const detail = await call(server, 'GET', '/api/iot/device/queryDeviceDetail', {
      token: operator.token,
      query: { id: d2.deviceId },
    });
    expect(detail.status).toBe(200);
  });

  test('a confined administrator binds only projects they hold, and cannot move a device out', async () => {
    const boss = await addDemoUser(server, admin, ['ROLE_ADMIN']);
    const other = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    expect((await bind(admin, boss.id, [p1])).status).toBe(200);

    // Never themselves, never a project they are not bound to, never "none" (the whole tenant).
    for (const [userId, projectIds] of [
      [boss.id, [p1, p2]],
      [other.id, [p2]],
      [other.id, []],
    ] as const) {
      const refused = await bind(boss.token, userId, projectIds);
      expect(refused.status, `${userId} ${projectIds.join(',')}`).toBe(403);
      expect(refused.body.errors[0].field).toBe('projectIds');
    }
    // Nor by adding a user: a new user is bound to nothing, which sees every project.
    const { orgId, roleIds } = (
      await server.db.system((sql) =>
        sql.query<{ orgId: string; roleIds: string[] }>(
          `SELECT (SELECT id::text FROM sys_org WHERE tenant_id = $1 ORDER BY id LIMIT 1) AS "orgId",
                  array(SELECT id::text FROM sys_role
                         WHERE tenant_id = $1 AND role_code = 'ROLE_OPERATOR') AS "roleIds"`,
          [demoId],
        ),
      )
    ).rows[0]!;
    const name = `prj${crypto.randomBytes(3).toString('hex')}`;
    const widened = await call(server, 'POST', entityCalls(sysUserEntity).add, {
      token: boss.token,
      body: { username: name, nickname: name, password: 'Live-access-42', orgId, roleIds },
    });
    expect(widened.status, JSON.stringify(widened.body)).toBe(403);
    expect(widened.body.errors[0].field).toBe('projectIds');

    // Nor does it manage anyone who sees more than it does: confining them, resetting their
    // password or second factor, changing their roles or details would let it act beyond its own.
    const manage = (token: string, userId: string) => [
      bind(token, userId, [p1]),
      call(server, 'POST', '/api/admin/sysuser/resetSysUserPassword', {
        token,
        body: { id: userId, password: 'Taken-over-2026' },
      }),
      call(server, 'POST', '/api/admin/sysuser/resetSysUserSecondFactor', {
        token,
        body: { id: userId },
      }),
      call(server, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
        token,
        body: { userId, roleIds },
      }),
      call(server, 'PUT', entityCalls(sysUserEntity).update, {
        token,
        body: { id: userId, nickname: 'Renamed by a confined admin' },
      }),
    ];
    for (const refused of await Promise.all(manage(boss.token, other.id)))
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    // Bound inside the administrator's own projects, the same user is theirs to manage.
    expect((await bind(admin, other.id, [p1])).status).toBe(200);
    for (const done of await Promise.all(manage(boss.token, other.id)))
      expect(done.status, JSON.stringify(done.body)).toBe(200);

    // A zone-confined administrator cannot lift a project-bound user's confinement either.
    const zoneId = (
      await server.db.system((sql) =>
        sql.query<{ id: string }>(
          'SELECT id::text FROM sys_zone WHERE tenant_id = $1 ORDER BY id LIMIT 1',
          [demoId],
        ),
      )
    ).rows[0]!.id;
    const zoneBoss = await addDemoUser(server, admin, ['ROLE_ADMIN']);
    const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token: admin,
      body: { userId: zoneBoss.id, zoneIds: [zoneId] },
    });
    expect(assigned.status).toBe(200);
    // Zones apply to its open session at once (live access checks).
    const lifted = await bind(zoneBoss.token, other.id, []);
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(403);
    expect(lifted.body.errors[0].field).toBe('userId');

    // Its own device cannot be moved to a project out of reach.
    const away = await call(server, 'PUT', entityCalls(iotDeviceEntity).update, {
      token: boss.token,
      body: { id: d1.deviceId, projectId: p2 },
    });
    expect(away.status, JSON.stringify(away.body)).toBe(403);
    const projectOf = await server.db.system((sql) =>
      sql.query<{ project_id: string }>('SELECT project_id::text FROM iot_device WHERE id = $1', [
        d1.deviceId,
      ]),
    );
    expect(projectOf.rows[0]!.project_id).toBe(p1);

    // A project users are bound to cannot be deleted (they would fall back to everything).
    const spare = await call(server, 'POST', entityCalls(iotProjectEntity).add, {
      token: admin,
      body: { projectNo: `PRJ-S-${crypto.randomBytes(3).toString('hex')}`, projectName: 'Spare' },
    });
    const spareId = String(spare.body.data.id);
    expect((await bind(admin, other.id, [spareId])).status).toBe(200);
    const deleted = await call(server, 'POST', entityCalls(iotProjectEntity).delete, {
      token: admin,
      body: { id: [spareId] },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(409);
  });

  test('live data follows the bound projects, and a new binding at once', async () => {
    const operator = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    expect((await bind(admin, operator.id, [p1])).status).toBe(200);
    const watcher = await connectClient(wsUrl(server), {
      clientId: `web:demo:${crypto.randomBytes(4).toString('hex')}`,
      username: 'browser',
      password: operator.token,
    });
    clients.push(watcher);
    const heard = inbox(watcher);
    const bell = `t/demo/u/${operator.id}/notify`;
    const telemetryOf = (device: TestDevice) => `t/demo/d/${device.deviceNo}/telemetry`;
    const publish = (topic: string) =>
      server.app.deviceTransport.publishLive(topic, JSON.stringify({ at: Date.now() }));
    await watcher.subscribeAsync(['t/demo/d/+/+', bell]);
    await publish(telemetryOf(d2));
    await publish(telemetryOf(d1));
    expect(await heard.until(telemetryOf(d1))).toEqual([]);

    // Rebound to p2: the open connection follows within the deadline.
    expect((await bind(admin, operator.id, [p2])).status).toBe(200);
    const deadline = Date.now() + DEADLINE_MS;
    let moved = false;
    while (!moved && Date.now() < deadline) {
      await publish(telemetryOf(d2));
      await publish(bell);
      moved = (await heard.until(bell)).includes(telemetryOf(d2));
    }
    expect(moved, 'the live filter follows the new binding within 2 s').toBe(true);
    await publish(telemetryOf(d1));
    await publish(bell);
    expect(await heard.until(bell)).toEqual([]);
  });
});
