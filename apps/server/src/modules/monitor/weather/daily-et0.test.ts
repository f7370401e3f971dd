import { WEATHER_CALLS, type DailyEt0 } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { connectDevice } from '../../iot/command/control-test-kit';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createAreaDevice, createZone, zonedAdmin } from '../rules-test-kit';

/** 6 July (FAO-56 Example 18's day) of this year's season, within the tenant's retention. */
const DAY = '2026-07-06';
/** The tenant's zone (Asia/Shanghai): local hour h of DAY as an instant. */
const localHour = (date: string, hour: number, minute = 30) =>
  Date.parse(`${date}T00:00:00Z`) + (hour - 8) * 3_600_000 + minute * 60_000;

/**
 * One reading an hour that reproduces Example 18's day: Tmax 21.5 / Tmin 12.3 °C, RHmax 84 /
 * RHmin 63 %, wind 2.78 m/s at 10 m (mean), and a daytime irradiance whose day is 22.07 MJ/m² (the
 * Rs Example 18 derives from its 9.25 h of sunshine). Rain at 07:30 and 08:30.
 */
function example18Day(date: string): Array<{ ts: number; values: Record<string, number> }> {
  const shape = Array.from({ length: 24 }, (_, hour) =>
    Math.max(0, Math.sin((Math.PI * (hour + 0.5 - 4)) / 16)),
  );
  const scale = ((22.07e6 / 86_400) * 24) / shape.reduce((sum, value) => sum + value, 0);
  return shape.map((sun, hour) => {
    const phase = Math.cos((2 * Math.PI * (hour - 3)) / 24);
    return {
      ts: localHour(date, hour),
      values: {
        airTemperature: Math.round((16.9 - 4.6 * phase) * 100) / 100,
        airHumidity: Math.round((73.5 + 10.5 * phase) * 100) / 100,
        // The product keeps wind to 0.1 m/s: 20 × 2.8 and 4 × 2.7 average 2.78.
        windSpeed: hour % 6 === 0 ? 2.7 : 2.8,
        solarRadiation: Math.round(sun * scale * 100) / 100,
        rainfall: hour === 7 ? 0.5 : hour === 8 ? 1.2 : 0,
      },
    };
  });
}

/*
 * Daily ET0 of a weather station from its stored readings (GET queryDailyEt0): a day of
 * readings that reproduce FAO-56 Example 18 gives its 3.9 mm/day.
 */
describe.each(BACKENDS)('daily ET0 on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let station: TestDevice;
  let zone: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    zone = await createZone(server.db, 'Weather');
    // Example 18's station: 50°48' N; its altitude (100 m) and anemometer height (10 m) are the
    // weather area's default settings.
    station = await createAreaDevice(server.db, 'weather_station', {
      zoneId: zone,
      lat: 50.8,
      lng: 4.35,
    });
    const device = await connectDevice(server, station);
    const readings = [
      ...example18Day(DAY),
      // The day before: six hours only, too few for an ET0.
      ...example18Day('2026-07-05').slice(8, 14),
    ];
    // QoS 1: each batch is stored when the broker acknowledges it.
    await device.client.publishAsync(
      `t/demo/d/${station.deviceNo}/telemetry`,
      JSON.stringify(readings),
      { qos: 1 },
    );
    await device.client.endAsync();
  });
  afterAll(async () => server?.close());

  const et0 = (query: Record<string, string>, as = token, lang = 'en') =>
    call(server, 'GET', WEATHER_CALLS.dailyEt0, { token: as, lang, query });

  test("reproduces Example 18's 3.9 mm/day from the station's readings, with the rainfall", async () => {
    const answer = await et0({ deviceId: station.deviceId, start: '2026-07-05', end: DAY });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data as DailyEt0;
    expect(data).toMatchObject({
      timeZone: 'Asia/Shanghai',
      latitude: 50.8,
      altitude: 100,
      windHeight: 10,
    });
    const [before, day] = data.list;
    expect(before).toMatchObject({ date: '2026-07-05', et0: null, hours: 6 });
    expect(before!.missing).toEqual(['coverage']);
    expect(day).toMatchObject({
      date: DAY,
      tMax: 21.5,
      tMin: 12.3,
      rhMax: 84,
      rhMin: 63,
      windSpeed: 2.78,
      rainfall: 1.7,
      hours: 24,
      missing: [],
    });
    expect(day!.solarRadiation!).toBeCloseTo(22.07, 1);
    expect(Math.abs(day!.et0! - 3.9)).toBeLessThanOrEqual(0.1);

    // An instant picks its day in the tenant's zone (23:30 local is still DAY).
    const byInstant = await et0({
      deviceId: station.deviceId,
      start: new Date(localHour(DAY, 23)).toISOString(),
      end: new Date(localHour(DAY, 23)).toISOString(),
    });
    expect(byInstant.body.data.list.map((row: { date: string }) => row.date)).toEqual([DAY]);
  });

  test('refuses other devices, reversed ranges, and stations outside the caller’s zones', async () => {
    const pump = await createAreaDevice(server.db, 'pump_station');
    const notStation = await et0({ deviceId: pump.deviceId, start: DAY, end: DAY }, token, 'zh');
    expect(notStation.status).toBe(400);
    expect(notStation.body.errors).toEqual([
      { field: 'deviceId', message: '气象站：该设备不是气象站' },
    ]);
    const reversed = await et0({ deviceId: station.deviceId, start: DAY, end: '2026-07-01' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors[0].field).toBe('end');
    expect((await et0({ deviceId: station.deviceId, start: 'July', end: DAY })).status).toBe(400);

    const elsewhere = await zonedAdmin(server, token, [await createZone(server.db, 'Far')]);
    expect(
      (await et0({ deviceId: station.deviceId, start: DAY, end: DAY }, elsewhere)).status,
    ).toBe(404);
    const inside = await zonedAdmin(server, token, [zone]);
    expect((await et0({ deviceId: station.deviceId, start: DAY, end: DAY }, inside)).status).toBe(
      200,
    );
  });
});
