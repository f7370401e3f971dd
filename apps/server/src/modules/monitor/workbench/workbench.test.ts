import crypto from 'node:crypto';
import {
  DEVICE_AREAS,
  entityCalls,
  productOfKind,
  ROLE_OPERATOR,
  sysUserEntity,
  WORKBENCH_CALLS,
  workbenchOverviewSchema,
  type WorkbenchMap,
  type WorkbenchOverview,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The map's columns as one object per device. */
const located = (map: WorkbenchMap) =>
  map.ids.map((id, i) => ({
    id,
    name: map.names[i],
    area: map.areas[i],
    lat: map.lat[i],
    lng: map.lng[i],
    online: map.online[i],
    status: map.status[i],
    ...(map.alarmLevels ? { alarmLevel: map.alarmLevels[i] } : {}),
  }));

/*
 * The workbench's operations overview (GET /api/monitor/workbench/queryOverview): devices per
 * area and state, alarms by level, water delivered today and this month (counter resets and late
 * readings included), the map and the newest records, in the caller's zones and grants.
 */
describe.each(BACKENDS)('workbench overview on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let admin: string;
  let zoned: string;
  let tenantId: string;
  const suffix = crypto.randomBytes(3).toString('hex');
  const zones = { mine: '', other: '' };
  /** In my zone: a valve controller (online, metered) and a pump station (offline, in fault). */
  const devices = { valve: '', pump: '', away: '' };
  /** The tenant's midnight today (Asia/Shanghai) and whether yesterday is in this month. */
  let dayStart: number;
  let yesterdayThisMonth: boolean;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = await adminToken(server);
    await server.db.system(async (sql) => {
      tenantId = (
        await sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`)
      ).rows[0]!.id;
      const calendar = await sql.query<{ day_start: Date; same_month: boolean }>(
        `SELECT (date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai') AS day_start,
                date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai')
                  < date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AS same_month`,
      );
      dayStart = new Date(calendar.rows[0]!.day_start).getTime();
      yesterdayThisMonth = calendar.rows[0]!.same_month;
      for (const name of ['mine', 'other'] as const)
        zones[name] = (
          await sql.query<{ id: string }>(
            `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_sequence)
             VALUES ($1, $2, $3, 0) RETURNING id::text`,
            [tenantId, `WB ${name} ${suffix}`, `WB-${name}-${suffix}`],
          )
        ).rows[0]!.id;
      const product = async (kind: 'irrigation_valve' | 'pump_station') =>
        (
          await sql.query<{ id: string }>(
            `SELECT id::text FROM iot_product WHERE tenant_id = $1 AND serial_no = $2`,
            [tenantId, productOfKind(kind).serialNo],
          )
        ).rows[0]!.id;
      const device = async (
        name: keyof typeof devices,
        kind: 'irrigation_valve' | 'pump_station',
        zoneId: string,
        state: { online: boolean; status: number },
      ) =>
        (
          await sql.query<{ id: string }>(
            `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, zone_id, status,
                                     online, lat, lng)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 36.5, 117.1) RETURNING id::text`,
            [
              tenantId,
              `WB-${suffix}-${name}`,
              `Workbench ${name}`,
              await product(kind),
              zoneId,
              state.status,
              state.online,
            ],
          )
        ).rows[0]!.id;
      devices.valve = await device('valve', 'irrigation_valve', zones.mine, {
        online: true,
        status: 0,
      });
      devices.pump = await device('pump', 'pump_station', zones.mine, { online: false, status: 5 });
      devices.away = await device('away', 'irrigation_valve', zones.other, {
        online: true,
        status: 0,
      });
      // Month partitions of the readings (yesterday may be last month's).
      await sql.query(`SELECT iot_telemetry_partition(to_timestamp($1 / 1000.0))`, [
        dayStart - 30 * HOUR,
      ]);
      await sql.query(`SELECT iot_telemetry_partition(to_timestamp($1 / 1000.0))`, [
        dayStart + HOUR,
      ]);
    });
    zoned = await zonedOperator();
  });
  afterAll(async () => server?.close());

  /** A new operator confined to my zone. */
  async function zonedOperator(): Promise<string> {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ org_id: string; role_id: string }>(
        `SELECT (SELECT id::text FROM sys_org WHERE tenant_id = $1 ORDER BY id LIMIT 1) AS org_id,
                (SELECT id::text FROM sys_role WHERE tenant_id = $1 AND role_code = $2) AS role_id`,
        [tenantId, ROLE_OPERATOR],
      ),
    );
    const username = `wb${suffix}`;
    const created = await call(server, 'POST', entityCalls(sysUserEntity).add, {
      token: admin,
      body: {
        username,
        nickname: username,
        password: 'Workbench-user-42',
        orgId: rows[0]!.org_id,
        roleIds: [rows[0]!.role_id],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
      token: admin,
      body: { userId: String(created.body.data.id), zoneIds: [zones.mine] },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    return (await signIn(server, 'demo', username, 'Workbench-user-42')).access_token;
  }

  const overview = async (token: string) => {
    const answer = await call(server, 'GET', WORKBENCH_CALLS.overview, { token });
    // The route writes its answer unchecked (workbench.routes.ts): the schema checks it here.
    if (answer.status === 200) workbenchOverviewSchema.parse(answer.body.data);
    return { status: answer.status, data: answer.body.data as WorkbenchOverview };
  };

  /** Stores meter readings as ingestion does: one statement per flush. */
  const store = (deviceId: string, readings: Array<[number, number]>) =>
    server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
         SELECT $1, $2, 'cumulativeVolume', to_timestamp(r.ms / 1000.0), r.v
           FROM unnest($3::double precision[], $4::double precision[]) AS r(ms, v)
         ON CONFLICT DO NOTHING`,
        [tenantId, deviceId, readings.map((r) => r[0]), readings.map((r) => r[1])],
      ),
    );

  test('counts each area’s devices by state, in the caller’s zones only', async () => {
    const { status, data } = await overview(zoned);
    expect(status).toBe(200);
    expect(data.areas.map((area) => area.area)).toEqual(DEVICE_AREAS.map((area) => area.code));
    const byArea = Object.fromEntries(data.areas.map((area) => [area.area, area]));
    expect(byArea.irrigation).toEqual({
      area: 'irrigation',
      total: 1,
      online: 1,
      offline: 0,
      fault: 0,
      alarm: 0,
    });
    expect(byArea.pumpStation).toEqual({
      area: 'pumpStation',
      total: 1,
      online: 0,
      offline: 1,
      fault: 1,
      alarm: 0,
    });
    expect(byArea.weatherStation!.total).toBe(0);
    expect([...data.map.ids].sort()).toEqual([devices.valve, devices.pump].sort());
    expect(located(data.map).find((device) => device.id === devices.pump)).toEqual({
      id: devices.pump,
      name: 'Workbench pump',
      area: 'pumpStation',
      online: false,
      status: 5,
      alarmLevel: null,
      lat: 36.5,
      lng: 117.1,
    });

    // The whole tenant for its administrator, as its devices stand.
    const whole = (await overview(admin)).data;
    const expected = await server.db.system((sql) =>
      sql.query<{ kind: string; total: number; online: number; fault: number }>(
        `SELECT p.device_kind AS kind, count(*)::int AS total,
                count(*) FILTER (WHERE d.online)::int AS online,
                count(*) FILTER (WHERE d.status <> 0)::int AS fault
           FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE d.tenant_id = $1 GROUP BY 1`,
        [tenantId],
      ),
    );
    for (const area of DEVICE_AREAS) {
      const rows = expected.rows.filter((row) => (area.kinds as string[]).includes(row.kind));
      const total = rows.reduce((sum, row) => sum + row.total, 0);
      const online = rows.reduce((sum, row) => sum + row.online, 0);
      expect(whole.areas.find((row) => row.area === area.code)).toMatchObject({
        total,
        online,
        offline: total - online,
        fault: rows.reduce((sum, row) => sum + row.fault, 0),
      });
    }
    expect(whole.map.ids).toEqual(
      expect.arrayContaining([devices.valve, devices.pump, devices.away]),
    );
  });

  test('adds up the water delivered today and this month, across a counter reset', async () => {
    // The valve: a first reading (nothing to add), +10 yesterday, then today +5, a reset to 3
    // (+3 counted from zero) and +7.
    await store(devices.valve, [
      [dayStart - 26 * HOUR, 1000],
      [dayStart - 2 * HOUR, 1010],
    ]);
    await store(devices.valve, [[dayStart + 5 * MINUTE, 1015]]);
    await store(devices.valve, [
      [dayStart + 10 * MINUTE, 3],
      [dayStart + 15 * MINUTE, 10],
    ]);
    // The pump station: +100 today. Another zone's valve: +1000 today.
    await store(devices.pump, [
      [dayStart - HOUR, 500],
      [dayStart + 20 * MINUTE, 600],
    ]);
    await store(devices.away, [
      [dayStart - HOUR, 0],
      [dayStart + 20 * MINUTE, 1000],
    ]);
    const yesterday = yesterdayThisMonth ? 10 : 0;

    const mine = (await overview(zoned)).data.water!;
    expect(mine.timeZone).toBe('Asia/Shanghai');
    expect(mine.areas).toEqual([
      { area: 'irrigation', today: 15, month: 15 + yesterday },
      { area: 'pumpStation', today: 100, month: 100 },
      // The zone's well controllers meter water too; nothing stored for them here.
      { area: 'skgg', today: 0, month: 0 },
    ]);
    expect(mine.today).toBe(115);
    expect(mine.month).toBe(115 + yesterday);

    // A late reading between two stored ones: the valve's days are counted again from it
    // (1015 -> 1020 adds 5; 1020 -> 3 is the reset).
    await store(devices.valve, [[dayStart + 7 * MINUTE, 1020]]);
    const late = (await overview(zoned)).data.water!;
    expect(late.areas[0]).toEqual({ area: 'irrigation', today: 20, month: 20 + yesterday });

    // The administrator's tenant has the other zone's valve too.
    const whole = (await overview(admin)).data.water!;
    expect(whole.today).toBeGreaterThanOrEqual(late.today + 1000);
  });

  test('counts open alarms by level and lists the newest alarms and commands', async () => {
    await server.db.system(async (sql) => {
      await sql.query(
        `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, started_at, state,
                                       cleared_at, acknowledged_at, acknowledged_by)
         VALUES ($1, $2, 'flow', 'orange', now() - interval '3 minutes', 'open', NULL, NULL, NULL),
                ($1, $2, 'pressure', 'red', now() - interval '2 minutes', 'open', NULL, NULL, NULL),
                ($1, $3, 'forebayLevel', 'blue', now() - interval '1 minute', 'cleared', now(), NULL, NULL),
                ($1, $3, 'flow', 'yellow', now() - interval '1 hour', 'cleared', now(), now(), 'admin'),
                ($1, $4, 'flow', 'red', now(), 'open', NULL, NULL, NULL)`,
        [tenantId, devices.valve, devices.pump, devices.away],
      );
      await sql.query(
        `INSERT INTO iot_command (tenant_id, username, device_id, name, params, status,
                                  timeout_seconds, created_at, expires_at, latency_ms, result)
         VALUES ($1, 'operator', $2, 'openValve', '{"channel":1}', 'succeeded', 30,
                 now() - interval '1 second', now() + interval '1 hour', 1200, 'opened'),
                ($1, 'operator', $3, 'startPump', '{"pumpNo":1}', 'failed', 60, now(),
                 now() + interval '1 hour', 900, 'dry run'),
                ($1, 'operator', $4, 'closeValve', '{"channel":2}', 'succeeded', 30, now(),
                 now() + interval '1 hour', 800, 'closed')`,
        [tenantId, devices.valve, devices.pump, devices.away],
      );
    });
    const { data } = await overview(zoned);
    expect(data.alarms!.levels).toEqual({ blue: 0, yellow: 0, orange: 1, red: 1 });
    expect(data.alarms!.open).toBe(2);
    expect(data.alarms!.unacknowledged).toBe(3);
    // Newest first.
    expect(data.alarms!.recent.map((alarm) => [alarm.deviceNo, alarm.level, alarm.state])).toEqual([
      [`WB-${suffix}-pump`, 'blue', 'cleared'],
      [`WB-${suffix}-valve`, 'red', 'open'],
      [`WB-${suffix}-valve`, 'orange', 'open'],
      [`WB-${suffix}-pump`, 'yellow', 'cleared'],
    ]);
    expect(data.alarms!.recent[3]!.acknowledged).toBe(true);
    expect(data.areas.find((area) => area.area === 'irrigation')!.alarm).toBe(1);
    const mapped = Object.fromEntries(
      located(data.map).map((device) => [device.id, device.alarmLevel]),
    );
    expect(mapped).toEqual({ [devices.valve]: 'red', [devices.pump]: 'blue' });

    expect(data.commands!.today).toBe(2);
    expect(data.commands!.failedToday).toBe(1);
    expect(data.commands!.recent.map((command) => [command.deviceNo, command.name])).toEqual([
      [`WB-${suffix}-pump`, 'startPump'],
      [`WB-${suffix}-valve`, 'openValve'],
    ]);
    expect(data.commands!.recent[0]).toMatchObject({
      deviceId: devices.pump,
      params: '{"pumpNo":1}',
      status: 'failed',
      username: 'operator',
      latencyMs: 900,
      result: 'dry run',
    });
  });

  test('answers only with its grant, and leaves out the sections the role may not read', async () => {
    const { token: none } = await noGrantUser(server, `wb${suffix}`);
    expect((await overview(none)).status).toBe(403);

    const { token: limited, roleId } = await noGrantUser(server, `wbl${suffix}`);
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO sys_role_url (tenant_id, role_id, url_id)
         SELECT u.tenant_id, $1, u.id FROM sys_url u WHERE u.tenant_id = $2 AND u.url = $3`,
        [roleId, tenantId, WORKBENCH_CALLS.overview],
      ),
    );
    const { status, data } = await overview(limited);
    expect(status).toBe(200);
    expect(data).not.toHaveProperty('alarms');
    expect(data).not.toHaveProperty('commands');
    expect(data).not.toHaveProperty('water');
    expect(data.areas.find((area) => area.area === 'irrigation')).not.toHaveProperty('alarm');
    expect(data.map.ids.length).toBeGreaterThan(0);
    expect(data.map).not.toHaveProperty('alarmLevels');
  });
});
