import crypto from 'node:crypto';
import { AREA_DEVICE_CALLS, areaOf, ROLE_OPERATOR, type AreaDevicePage } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { parentChildOtherZones, zoneConfinedUser } from '@shuili/test-support/test-zones';
import { adminToken } from '../../mqtt/mqtt-test-clients';
import { TEST_THING_MODEL } from '../iot/telemetry/telemetry-test-fixtures';

/*
 * The area device list (GET /api/monitor/device/queryAreaDevice): an area's devices only, in
 * the caller's zones, filtered, with live values and alarms as the caller's grants allow.
 */
describe.each(BACKENDS)('area device list on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  /** Our own irrigation product (a text property besides numbers, an enum and a boolean). */
  let productId: string;
  /** Zones: parent > child, and another beside them. */
  const zones = { parent: '', child: '', other: '' };
  /** Devices of our product: one in the child zone, one in the other zone, one in none. */
  const devices = { inChild: '', inOther: '', loose: '' };
  const suffix = crypto.randomBytes(3).toString('hex');
  const numberOf = (name: keyof typeof devices) => `AD-${suffix}-${name}`;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    Object.assign(zones, await parentChildOtherZones(server, '', suffix));
    await server.db.system(async (sql) => {
      tenantId = (
        await sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`)
      ).rows[0]!.id;
      productId = (
        await sql.query<{ id: string }>(
          `INSERT INTO iot_product (tenant_id, serial_no, product_name, device_kind, thing_model)
           VALUES ($1, $2, 'Area test valve', 'irrigation_valve', $3::jsonb) RETURNING id::text`,
          [tenantId, `AT-${suffix}`, JSON.stringify(TEST_THING_MODEL)],
        )
      ).rows[0]!.id;
      const device = async (name: keyof typeof devices, zoneId: string | null) =>
        (
          await sql.query<{ id: string }>(
            `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, zone_id, status)
             VALUES ($1, $2, $3, $4, $5, 0) RETURNING id::text`,
            [tenantId, numberOf(name), `Area ${name} ${suffix}`, productId, zoneId],
          )
        ).rows[0]!.id;
      devices.inChild = await device('inChild', zones.child);
      devices.inOther = await device('inOther', zones.other);
      devices.loose = await device('loose', null);
    });
  });
  afterAll(async () => server?.close());

  const list = async (
    query: Record<string, string>,
    as = token,
  ): Promise<{ status: number; page: AreaDevicePage; body: any }> => {
    const answer = await call(server, 'GET', AREA_DEVICE_CALLS.query, {
      token: as,
      query: { pageSize: '500', ...query },
      lang: 'en',
    });
    return { status: answer.status, page: answer.body.data, body: answer.body };
  };
  const ours = (page: AreaDevicePage) =>
    page.list.filter((row) => row.deviceNo.startsWith(`AD-${suffix}-`)).map((row) => row.id);

  test('lists the devices of the area’s device kinds only, each product once', async () => {
    const expected = await server.db.system((sql) =>
      sql.query<{ id: string; device_kind: string }>(
        `SELECT d.id::text, p.device_kind FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE d.tenant_id = $1 ORDER BY d.device_no, d.id`,
        [tenantId],
      ),
    );
    for (const code of ['irrigation', 'weatherStation', 'pumpStation']) {
      const area = areaOf(code)!;
      const { status, page } = await list({ area: code });
      expect(status).toBe(200);
      const want = expected.rows
        .filter((row) => (area.kinds as readonly string[]).includes(row.device_kind))
        .map((row) => row.id);
      expect(want.length).toBeGreaterThan(0);
      expect(page.list.map((row) => row.id)).toEqual(want);
      expect(page.total).toBe(want.length);
      const productIds = page.products.map((product) => product.id);
      expect(new Set(productIds).size).toBe(productIds.length);
      expect(new Set(page.list.map((row) => row.productId))).toEqual(new Set(productIds));
      for (const product of page.products)
        expect(product.thingModel.properties.length).toBeGreaterThan(0);
    }
    const irrigation = await list({ area: 'irrigation' });
    expect(ours(irrigation.page)).toEqual([devices.inChild, devices.inOther, devices.loose]);
    expect(ours((await list({ area: 'weatherStation' })).page)).toEqual([]);
  });

  test('reads the alarms wanting attention through their own index, made at start', async () => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE indexname = 'iot_alarm_record_attention_idx'`,
      ),
    );
    expect(rows[0]?.indexdef).toMatch(
      /\(device_id\) WHERE \(\(state = 'open'.*acknowledged_at IS NULL/,
    );
  });

  test('an unknown or missing area is a 400 naming `area`', async () => {
    for (const query of [{ area: 'nowhere' }, {}] as Array<Record<string, string>>) {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect(body.errors[0].field).toBe('area');
      expect(body.message).toContain('Area');
    }
    const bad = await list({ area: 'irrigation', status: 'broken' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('status');
  });

  test('filters by zone (with the zones below it), project, health, online and text', async () => {
    const area = 'irrigation';
    expect(ours((await list({ area, zoneId: zones.parent })).page)).toEqual([devices.inChild]);
    expect(ours((await list({ area, zoneId: zones.child })).page)).toEqual([devices.inChild]);
    expect(ours((await list({ area, zoneId: zones.other })).page)).toEqual([devices.inOther]);
    const zoned = (await list({ area, zoneId: zones.child })).page;
    expect(zoned.list.map((row) => row.zoneName)).toEqual([`Child ${suffix}`]);

    const text = await list({ area, text: `${suffix}-inoth` });
    expect(text.page.list.map((row) => row.id)).toEqual([devices.inOther]);
    expect(text.page.total).toBe(1);
    // The name matches too, and LIKE's wildcards are only characters.
    expect(ours((await list({ area, text: `Area loose ${suffix}` })).page)).toEqual([
      devices.loose,
    ]);
    expect((await list({ area, text: '%' })).page.total).toBe(0);

    await server.db.system((sql) =>
      sql.query(
        `UPDATE iot_device SET online = (id = $1), status = CASE WHEN id = $2 THEN 7 ELSE status END
          WHERE id = ANY($3::bigint[])`,
        [devices.inChild, devices.loose, [devices.inChild, devices.inOther, devices.loose]],
      ),
    );
    expect(ours((await list({ area, online: 'true' })).page)).toEqual([devices.inChild]);
    expect(ours((await list({ area, online: 'false' })).page)).toEqual([
      devices.inOther,
      devices.loose,
    ]);
    expect(ours((await list({ area, status: 'fault' })).page)).toEqual([devices.loose]);
    expect(ours((await list({ area, status: 'normal' })).page)).toEqual([
      devices.inChild,
      devices.inOther,
    ]);
    const faulty = (await list({ area, status: 'fault' })).page;
    expect(faulty.list.every((row) => row.status !== 0)).toBe(true);
    expect(faulty.counts.fault).toBe(faulty.total);

    // Counts are of the filtered set, whatever the page.
    const all = (await list({ area })).page;
    expect(all.counts.online).toBe(all.list.filter((row) => row.online).length);
    expect(all.counts.offline).toBe(all.total - all.counts.online);
    expect(all.counts.fault).toBe(all.list.filter((row) => row.status !== 0).length);
    const one = (await list({ area, pageSize: '1', currentPage: '2' })).page;
    expect(one.list.map((row) => row.id)).toEqual([all.list[1]!.id]);
    expect(one.total).toBe(all.total);
    expect(one.counts).toEqual(all.counts);
    const past = (await list({ area, pageSize: '50', currentPage: '1000' })).page;
    expect(past.list).toEqual([]);
    expect(past.total).toBe(all.total);
    expect(past.counts).toEqual(all.counts);

    const project = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO iot_project (tenant_id, project_no, project_name) VALUES ($1, $2, $3)
         RETURNING id::text`,
        [tenantId, `AP-${suffix}`, `Area project ${suffix}`],
      );
      await sql.query('UPDATE iot_device SET project_id = $1 WHERE id = $2', [
        rows[0]!.id,
        devices.inOther,
      ]);
      return rows[0]!.id;
    });
    const byProject = (await list({ area, projectId: project })).page;
    expect(byProject.list.map((row) => [row.id, row.projectName])).toEqual([
      [devices.inOther, `Area project ${suffix}`],
    ]);
  });

  test('answers every reported number, enum and boolean with its time, and the alarm', async () => {
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_telemetry_latest (tenant_id, device_id, key, ts, value, text_value)
         VALUES ($1, $2, 'flow', '2025-05-01T08:00:00Z', 12.5, NULL),
                ($1, $2, 'valve', '2025-05-01T08:00:01Z', 1, NULL),
                ($1, $2, 'running', '2025-05-01T08:00:02Z', 0, NULL),
                ($1, $2, 'note', '2025-05-01T08:00:03Z', NULL, 'hello'),
                ($1, $2, 'gone', '2025-05-01T08:00:04Z', 3, NULL)
         ON CONFLICT (tenant_id, device_id, key) DO UPDATE SET value = EXCLUDED.value`,
        [tenantId, devices.inChild],
      ),
    );
    const page = (await list({ area: 'irrigation', zoneId: zones.child })).page;
    const [row] = page.list;
    // The text property and a key the thing model no longer has are left out.
    expect(row!.values).toEqual({ flow: 12.5, valve: 1, running: 0 });
    expect(row!.valueTimes).toEqual({
      flow: '2025-05-01T08:00:00.000Z',
      valve: '2025-05-01T08:00:01.000Z',
      running: '2025-05-01T08:00:02.000Z',
    });
    expect(row!.alarmLevel).toBeNull();
    expect(page.counts.alarm).toBe(0);
    expect(page.products.map((product) => product.id)).toEqual([productId]);
    expect(page.products[0]!.thingModel.properties.map((property) => property.key)).toContain(
      'note',
    );

    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, started_at, state)
         VALUES ($1, $2, 'flow', 'orange', now(), 'open'), ($1, $2, 'flow', 'blue', now(), 'open')`,
        [tenantId, devices.inChild],
      ),
    );
    const alarmed = (await list({ area: 'irrigation', zoneId: zones.child })).page;
    expect(alarmed.list[0]!.alarmLevel).toBe('orange');
    expect(alarmed.counts.alarm).toBe(1);
  });

  test('a zone-confined user sees only the devices of their zones (and below)', async () => {
    const zoned = await zoneConfinedUser(server, {
      username: `zoned${suffix}`,
      roleCode: ROLE_OPERATOR,
      zoneIds: [zones.parent],
    });

    const seen = await list({ area: 'irrigation' }, zoned);
    expect(seen.status).toBe(200);
    expect(seen.page.list.map((row) => row.id)).toEqual([devices.inChild]);
    expect(seen.page.total).toBe(1);
    expect(seen.page.counts).toMatchObject({ online: 1, offline: 0, fault: 0 });
    // Asking for another zone does not widen the scope.
    expect((await list({ area: 'irrigation', zoneId: zones.other }, zoned)).page.total).toBe(0);
    // The operator's default grants include the alarm and telemetry reads.
    expect(seen.page.list[0]!.values).toMatchObject({ flow: 12.5 });
    expect(seen.page.list[0]!.alarmLevel).toBe('orange');
  });

  test('answers only with its grant; alarms and live values only with theirs', async () => {
    const { token: none } = await noGrantUser(server, `ad${suffix}`);
    expect((await list({ area: 'irrigation' }, none)).status).toBe(403);

    const { token: limited, roleId } = await noGrantUser(server, `adl${suffix}`);
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO sys_role_url (tenant_id, role_id, url_id)
         SELECT u.tenant_id, $1, u.id FROM sys_url u WHERE u.tenant_id = $2 AND u.url = $3`,
        [roleId, tenantId, AREA_DEVICE_CALLS.query],
      ),
    );
    const seen = await list({ area: 'irrigation', zoneId: zones.child }, limited);
    expect(seen.status).toBe(200);
    const [row] = seen.page.list;
    expect(row!.id).toBe(devices.inChild);
    expect(row).not.toHaveProperty('alarmLevel');
    expect(row).not.toHaveProperty('values');
    expect(row).not.toHaveProperty('valueTimes');
    expect(seen.page.counts).not.toHaveProperty('alarm');
    expect(seen.page.counts.online).toBe(1);
  });
});
