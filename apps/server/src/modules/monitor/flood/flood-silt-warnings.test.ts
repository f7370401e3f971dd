import {
  AREA_DEVICE_CALLS,
  AREA_SETTING_CALLS,
  FLOOD_CALLS,
  MONITOR_REPORT_CALLS,
  NATIONAL_RAIN_SIGNALS,
  type RainThresholds,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { runsOfKey, until } from '../../scheduler/scheduler-test-kit';
import { bringDue } from '../irrigation/irrigation-test-kit';
import { createAreaDevice } from '../rules-test-kit';
import { SILT_RULE_NAME } from '../silt/silt-warning';
import { STATION_WARNINGS_KEY } from '../station-warnings/station-warning';

/**
 * Flood and silt on the server (HTTP, PGlite and PostgreSQL): rolling rain from a counter with a
 * reset and a repeated reading, the rainstorm levels raised and cleared at their thresholds
 * through the alarm engine (with the bell's notice), the water level against its lines, the
 * thresholds' checks, and the silt warning past the dredging depth and cleared when dredged.
 */
describe.each(BACKENDS)('flood and silt warnings on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const minutesAgo = (minutes: number) => Date.now() - minutes * 60_000;
  const ingest = (device: TestDevice, ts: number, values: Record<string, number>) =>
    server.app.telemetry.ingest.handle(telemetryUplink(device, { ts, values }));
  const status = async (device: TestDevice) => {
    const answer = await call(server, 'GET', FLOOD_CALLS.status, {
      token,
      query: { deviceIds: device.deviceId },
    });
    expect(answer.status).toBe(200);
    return answer.body.data[0];
  };
  const saveThresholds = (deviceId: string | null, thresholds: RainThresholds | null) =>
    call(server, 'POST', FLOOD_CALLS.updateThresholds, {
      token,
      body: { deviceId, thresholds },
    });

  /** A device's alarms (rule, state, property, value, threshold), oldest first. */
  const alarmsOf = async (deviceId: string) =>
    (
      await server.db.systemStatement<{
        id: string;
        rule_name: string;
        level: string;
        state: string;
        property_key: string;
        value: number;
        threshold: number;
      }>(
        `SELECT a.id::text, r.rule_name, a.level, a.state, a.property_key, a.value, a.threshold
           FROM iot_alarm_record a JOIN iot_alarm_rule r ON r.id = a.rule_id
          WHERE a.device_id = $1 ORDER BY a.started_at, a.id`,
        [deviceId],
      )
    ).rows;
  const open = async (deviceId: string) =>
    (await alarmsOf(deviceId))
      .filter((one) => one.state === 'open')
      .sort((a, b) => a.rule_name.localeCompare(b.rule_name))
      .map(({ rule_name, property_key, value, threshold }) => ({
        rule_name,
        property_key,
        value,
        threshold,
      }));

  /** Runs the station check now and waits for it. */
  const check = async () => {
    await until(
      () =>
        server.db.systemStatement<{ state: string }>(
          `SELECT state FROM scheduler_trigger WHERE key = $1`,
          [STATION_WARNINGS_KEY],
        ),
      (result) => result.rows[0]?.state === 'waiting',
      'the station check is waiting',
    );
    const before = (await runsOfKey(server.db, STATION_WARNINGS_KEY)).length;
    await bringDue(server.db, STATION_WARNINGS_KEY);
    await until(
      () => runsOfKey(server.db, STATION_WARNINGS_KEY),
      (runs) => runs.length > before && runs.at(-1)!.state === 'succeeded',
      'the station check ran',
    );
  };

  it.skipIf(!available)(
    "sums a counter's rain with a reset and a repeated reading counted once",
    async () => {
      const station = await createAreaDevice(server.db, 'flood_station');
      const set = await call(server, 'POST', AREA_SETTING_CALLS.update, {
        token,
        body: {
          area: 'floodMonitor',
          deviceId: station.deviceId,
          values: { rainSource: 'counter' },
        },
      });
      expect(set.status).toBe(200);
      await ingest(station, minutesAgo(26 * 60), { rainfallTotal: 996.5 }); // the base
      await ingest(station, minutesAgo(200), { rainfallTotal: 998.0 }); // +1.5
      await ingest(station, minutesAgo(150), { rainfallTotal: 999.9 }); // +1.9
      await ingest(station, minutesAgo(150), { rainfallTotal: 999.9 }); // re-sent: nothing
      await ingest(station, minutesAgo(100), { rainfallTotal: 2.4 }); // rolled over: 2.4
      await ingest(station, minutesAgo(40), { rainfallTotal: 6.0 }); // +3.6
      const now = await status(station);
      expect(now.source).toBe('counter');
      expect(now.sums).toEqual({ h1: 3.6, h3: 7.9, h6: 9.4, h12: 9.4, h24: 9.4 });
      expect(now.warning).toBeNull();
      // The device list shows the server's sums under the product's rolling keys.
      const list = await call(server, 'GET', AREA_DEVICE_CALLS.query, {
        token,
        query: { area: 'floodMonitor', text: station.deviceNo },
      });
      expect(list.body.data.list[0].values).toMatchObject({ rainfall1h: 3.6, rainfall24h: 9.4 });
    },
  );

  it.skipIf(!available)(
    'raises the highest rainstorm level at its threshold, notifies, and clears below it',
    async () => {
      const station = await createAreaDevice(server.db, 'flood_station');
      // 50.0 mm within the last hour: 50 in 3 h is orange exactly (national signals).
      for (const minutes of [50, 40, 30, 20, 10])
        await ingest(station, minutesAgo(minutes), { rainfall: 10 });
      await ingest(station, minutesAgo(5), { waterLevel: 5.2 });
      expect((await status(station)).sums).toEqual({ h1: 50, h3: 50, h6: 50, h12: 50, h24: 50 });
      // The data report derives the 3 h sum up to each reading, and totals the rain.
      const report = await call(server, 'GET', MONITOR_REPORT_CALLS.query, {
        token,
        query: {
          area: 'floodMonitor',
          deviceIds: station.deviceId,
          keys: 'rainfall,rainfall3h',
          start: new Date(minutesAgo(120)).toISOString(),
          end: new Date().toISOString(),
          bucket: 'raw',
        },
      });
      expect(report.status).toBe(200);
      const series = (key: string) =>
        report.body.data.series.find((one: { key: string }) => one.key === key);
      expect(series('rainfall3h').avg).toEqual([10, 20, 30, 40, 50]);
      expect(series('rainfall').stats.total).toBe(50);
      await check();
      expect(await open(station.deviceId)).toEqual([
        expect.objectContaining({
          rule_name: 'Rainstorm warning (orange)',
          property_key: 'rainfall3h',
          value: 50,
          threshold: 50,
        }),
        expect.objectContaining({
          rule_name: 'Water level above guarantee level',
          property_key: 'waterLevel',
          value: 5.2,
          threshold: 5,
        }),
      ]);
      // The bell's notice of the raised warning, naming the window in every language.
      const orange = (await alarmsOf(station.deviceId)).find((one) => one.level === 'orange');
      const notice = await server.db.systemStatement<{ title_i18n: Record<string, string> }>(
        'SELECT title_i18n FROM notification WHERE alarm_id = $1',
        [orange!.id],
      );
      expect(notice.rows).toHaveLength(1);
      expect(JSON.stringify(notice.rows[0]!.title_i18n)).toContain('3');
      // Checked again: nothing more.
      await check();
      expect(await alarmsOf(station.deviceId)).toHaveLength(2);

      // The station's own thresholds: orange needs 50.1 in 3 h now, so yellow (50 in 6 h) is
      // the highest reached: orange clears, yellow is raised.
      const own: RainThresholds = {
        ...NATIONAL_RAIN_SIGNALS,
        orange: { ...NATIONAL_RAIN_SIGNALS.orange, h3: 50.1 },
      };
      expect((await saveThresholds(station.deviceId, own)).status).toBe(200);
      await check();
      expect((await open(station.deviceId)).map((one) => one.rule_name)).toEqual([
        'Rainstorm warning (yellow)',
        'Water level above guarantee level',
      ]);
      // Just above every remaining level: all rainstorm warnings clear.
      const above: RainThresholds = {
        ...own,
        blue: { ...own.blue, h12: 50.1 },
        yellow: { ...own.yellow, h6: 50.1 },
      };
      expect((await saveThresholds(station.deviceId, above)).status).toBe(200);
      const read = await call(server, 'GET', FLOOD_CALLS.thresholds, {
        token,
        query: { deviceId: station.deviceId },
      });
      expect(read.body.data).toMatchObject({ own: true, thresholds: above });
      await ingest(station, minutesAgo(1), { waterLevel: 3.5 });
      await check();
      expect(await open(station.deviceId)).toEqual([]);
      expect((await alarmsOf(station.deviceId)).map((one) => one.state)).toEqual([
        'cleared',
        'cleared',
        'cleared',
      ]);
    },
  );

  it.skipIf(!available)('refuses thresholds out of order or range, naming the field', async () => {
    const station = await createAreaDevice(server.db, 'flood_station');
    const wrong: RainThresholds = {
      ...NATIONAL_RAIN_SIGNALS,
      red: { ...NATIONAL_RAIN_SIGNALS.red, h3: 40 },
      blue: { ...NATIONAL_RAIN_SIGNALS.blue, h1: 0.05 },
    };
    const refused = await saveThresholds(station.deviceId, wrong);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((one: { field: string }) => one.field).sort()).toEqual([
      'thresholds.blue.h1',
      'thresholds.red.h3',
    ]);
    const read = await call(server, 'GET', FLOOD_CALLS.thresholds, {
      token,
      query: { deviceId: station.deviceId },
    });
    expect(read.body.data).toMatchObject({ own: false, thresholds: NATIONAL_RAIN_SIGNALS });
    // Not a flood station: 400 naming deviceId.
    const silt = await createAreaDevice(server.db, 'silt_station');
    const other = await saveThresholds(silt.deviceId, NATIONAL_RAIN_SIGNALS);
    expect(other.status).toBe(400);
  });

  it.skipIf(!available)(
    'raises a silt warning past the dredging depth, cleared when dredged',
    async () => {
      const station = await createAreaDevice(server.db, 'silt_station');
      await ingest(station, minutesAgo(30), { siltDepth: 0.5 }); // at the default depth: not past
      await check();
      expect(await open(station.deviceId)).toEqual([]);
      await ingest(station, minutesAgo(20), { siltDepth: 0.62 });
      await check();
      expect(await open(station.deviceId)).toEqual([
        { rule_name: SILT_RULE_NAME, property_key: 'siltDepth', value: 0.62, threshold: 0.5 },
      ]);
      await ingest(station, minutesAgo(5), { siltDepth: 0.06 });
      await check();
      expect((await alarmsOf(station.deviceId)).map((one) => one.state)).toEqual(['cleared']);
    },
  );
});
