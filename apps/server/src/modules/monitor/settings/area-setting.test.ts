import { AREA_SETTING_CALLS, type AreaDeviceSettings } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { createAreaDevice, createZone, zonedAdmin } from '../rules-test-kit';
import { areaSetting } from './area-setting.service';

/*
 * Area settings (GET queryAreaSetting, POST updateAreaSetting): per-device values of an area's
 * declared settings, checked against the declaration, confined to the caller's zones.
 */
describe.each(BACKENDS)('area settings on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  const zones = { a: '', b: '' };
  const devices = { pumpA: '', pumpB: '', soil: '' };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    zones.a = await createZone(server.db, 'Settings A');
    zones.b = await createZone(server.db, 'Settings B');
    devices.pumpA = (
      await createAreaDevice(server.db, 'pump_station', { zoneId: zones.a })
    ).deviceId;
    devices.pumpB = (
      await createAreaDevice(server.db, 'pump_station', { zoneId: zones.b })
    ).deviceId;
    devices.soil = (
      await createAreaDevice(server.db, 'soil_moisture', { zoneId: zones.a })
    ).deviceId;
  });
  afterAll(async () => server?.close());

  const query = (params: Record<string, string>, as = token) =>
    call(server, 'GET', AREA_SETTING_CALLS.query, { token: as, query: params });
  const update = (body: unknown, as = token, lang = 'en') =>
    call(server, 'POST', AREA_SETTING_CALLS.update, { token: as, body, lang });

  test("answers each device's values, its own or the declaration's default", async () => {
    const before = await query({ area: 'pumpStation', deviceId: devices.pumpA });
    expect(before.status).toBe(200);
    expect(before.body.data.list).toEqual([
      expect.objectContaining({
        deviceId: devices.pumpA,
        values: { dryRunLevel: 1 },
        own: [],
        updatedAt: null,
      }),
    ]);

    const saved = await update({
      area: 'pumpStation',
      deviceId: devices.pumpA,
      values: { dryRunLevel: 1.35 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({
      values: { dryRunLevel: 1.35 },
      own: ['dryRunLevel'],
      updatedBy: 'admin',
    });
    // Every pump station of the area, the other one still at the default.
    const all = await query({ area: 'pumpStation', pageSize: '500' });
    const rows = all.body.data.list as AreaDeviceSettings[];
    expect(rows.find((row) => row.deviceId === devices.pumpA)?.values).toEqual({
      dryRunLevel: 1.35,
    });
    expect(rows.find((row) => row.deviceId === devices.pumpB)?.values).toEqual({ dryRunLevel: 1 });
    expect(rows.some((row) => row.deviceId === devices.soil)).toBe(false);
    // The rules' own reader sees the same, and the default where nothing is stored.
    await server.db.tenant(
      (
        await server.db.system((sql) =>
          sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
        )
      ).rows[0]!.id,
      async (sql) => {
        expect(await areaSetting(sql, devices.pumpA, 'pumpStation', 'dryRunLevel')).toBe(1.35);
        expect(await areaSetting(sql, devices.pumpB, 'pumpStation', 'dryRunLevel')).toBe(1);
      },
    );

    // null resets to the default.
    const reset = await update({
      area: 'pumpStation',
      deviceId: devices.pumpA,
      values: { dryRunLevel: null },
    });
    expect(reset.body.data).toMatchObject({ values: { dryRunLevel: 1 }, own: [] });

    // Enums and integers of another area.
    const soil = await update({
      area: 'soilMoisture',
      deviceId: devices.soil,
      values: { soilType: 'clay', droughtHours: 48 },
    });
    expect(soil.status, JSON.stringify(soil.body)).toBe(200);
    expect(soil.body.data.values).toMatchObject({
      soilType: 'clay',
      droughtHours: 48,
      droughtThreshold: 15,
    });
  });

  test('refuses values the declaration does not allow, naming values.<key>, in three languages', async () => {
    const messages = {
      en: 'Dry-run level must be between 0 and 10 m',
      zh: '干运行保护水位 应在 0 到 10 m 之间',
      tw: '乾運轉保護水位 應在 0 到 10 m 之間',
    };
    for (const [lang, message] of Object.entries(messages)) {
      const refused = await update(
        { area: 'pumpStation', deviceId: devices.pumpB, values: { dryRunLevel: 10.5 } },
        token,
        lang,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'values.dryRunLevel', message }]);
      expect(refused.body.message).toBe(message);
    }
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ dryRunLevel: '2' }, 'values.dryRunLevel', 'Dry-run level has a value of the wrong kind'],
      [
        { dryRunLevel: 1.234 },
        'values.dryRunLevel',
        'Dry-run level may have at most 2 decimal places',
      ],
      [{ pumpCount: 2 }, 'values.pumpCount', 'pumpCount is not a setting of Pump stations'],
    ];
    for (const [values, field, message] of cases) {
      const refused = await update({ area: 'pumpStation', deviceId: devices.pumpB, values });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field, message }]);
    }
    const soil = await update({
      area: 'soilMoisture',
      deviceId: devices.soil,
      values: { soilType: 'peat', droughtHours: 1.5 },
    });
    expect(soil.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'values.soilType',
      'values.droughtHours',
    ]);
    expect(soil.body.errors[1].message).toBe('For at least must be a whole number');
    // A device of another area, and nothing stored by any refusal (all or none).
    const wrongArea = await update({
      area: 'soilMoisture',
      deviceId: devices.pumpB,
      values: { soilType: 'clay' },
    });
    expect(wrongArea.status).toBe(400);
    expect(wrongArea.body.errors[0].field).toBe('deviceId');
    const mixed = await update({
      area: 'soilMoisture',
      deviceId: devices.soil,
      values: { soilType: 'sand', droughtThreshold: 99 },
    });
    expect(mixed.status).toBe(400);
    const after = await query({ area: 'soilMoisture', deviceId: devices.soil });
    expect(after.body.data.list[0].values.soilType).toBe('clay');
    // An unknown area is a 400 of the schema.
    expect((await query({ area: 'noSuchArea' })).status).toBe(400);
  });

  test("a caller confined to zones reads and writes only their devices' settings", async () => {
    const zoned = await zonedAdmin(server, token, [zones.a]);
    const listed = await query({ area: 'pumpStation', pageSize: '500' }, zoned);
    expect(listed.status).toBe(200);
    expect(listed.body.data.list.map((row: AreaDeviceSettings) => row.deviceId)).toEqual([
      devices.pumpA,
    ]);
    expect(listed.body.data.total).toBe(1);
    const outside = await query({ area: 'pumpStation', deviceId: devices.pumpB }, zoned);
    expect(outside.status).toBe(404);
    const write = await update(
      { area: 'pumpStation', deviceId: devices.pumpB, values: { dryRunLevel: 5 } },
      zoned,
    );
    expect(write.status).toBe(404);
    expect(write.body.errors[0].field).toBe('deviceId');
    const mine = await update(
      { area: 'pumpStation', deviceId: devices.pumpA, values: { dryRunLevel: 2 } },
      zoned,
    );
    expect(mine.status).toBe(200);
    const seen = await query({ area: 'pumpStation', deviceId: devices.pumpB });
    expect(seen.body.data.list[0].values.dryRunLevel).toBe(1);
  });

  test('answers only with the grant of each call', async () => {
    const { token: none } = await noGrantUser(server, `set${backend}`);
    expect((await query({ area: 'pumpStation' }, none)).status).toBe(403);
    expect(
      (
        await update(
          { area: 'pumpStation', deviceId: devices.pumpA, values: { dryRunLevel: 3 } },
          none,
        )
      ).status,
    ).toBe(403);
  });
});
