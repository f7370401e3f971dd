import {
  AREA_SETTING_CALLS,
  entityCalls,
  MONITOR_REPORT_CALLS,
  ratingCurveEntity,
  runoffEventEntity,
  type AreaReport,
} from '@shuili/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { runsOfKey, until } from '../../scheduler/scheduler-test-kit';
import { bringDue, irrigationDevice } from '../irrigation/irrigation-test-kit';
import { createZone, zonedAdmin } from '../rules-test-kit';
import { RUNOFF_DETECTION_KEY } from './runoff-detection';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/*
 * Runoff plots and bayonet stations over HTTP: rating curves with validity periods (overlaps and
 * bad periods refused naming the field) turning stored levels into flow and sediment discharge
 * in the data report (the check vector Q(1.5) = 10.00, Q(2.5) = 30.31), and a runoff event cut
 * from known readings with its volume, sediment yield, depth and coefficient.
 */
describe.each(BACKENDS)(
  'runoff plots and bayonet stations on $backend',
  ({ backend, available }) => {
    const test = it.skipIf(!available);
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer({ backend });
      token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    });
    afterAll(async () => server?.close());

    const ingest = (device: TestDevice, at: number, values: Record<string, number>) =>
      server.app.telemetry.ingest.handle(telemetryUplink(device, { ts: at, values }));
    const addCurve = (body: Record<string, unknown>) =>
      call(server, 'POST', entityCalls(ratingCurveEntity).add, { token, body });

    test('rating curves apply by validity period; flow and sediment discharge are reported', async () => {
      const station = await irrigationDevice(server.db, 'bayonet_station');
      const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
      const iso = (offset: number) => new Date(base + offset).toISOString();
      const first = await addCurve({
        deviceId: station.deviceId,
        a: 10,
        h0: 0.5,
        b: 1.6,
        validFrom: iso(0),
        validTo: iso(5 * HOUR),
      });
      expect(first.status).toBe(200);
      expect(
        (
          await addCurve({
            deviceId: station.deviceId,
            a: 20,
            h0: 0.5,
            b: 1.6,
            validFrom: iso(5 * HOUR),
          })
        ).status,
      ).toBe(200);

      // Overlapping either period, ending before it starts, or on another kind of device: refused.
      const overlap = await addCurve({
        deviceId: station.deviceId,
        a: 5,
        h0: 0.2,
        b: 1.5,
        validFrom: iso(4 * HOUR),
        validTo: iso(6 * HOUR),
      });
      expect(overlap.status).toBe(400);
      expect(overlap.body.errors.map((one: { field: string }) => one.field)).toEqual(['validFrom']);
      expect(overlap.body.errors[0].message).toContain('must not overlap');
      const backwards = await addCurve({
        deviceId: station.deviceId,
        a: 5,
        h0: 0.2,
        b: 1.5,
        validFrom: iso(-2 * HOUR),
        validTo: iso(-3 * HOUR),
      });
      expect(backwards.status).toBe(400);
      expect(backwards.body.errors[0].field).toBe('validTo');
      const plot = await irrigationDevice(server.db, 'sediment_station');
      const wrongKind = await addCurve({
        deviceId: plot.deviceId,
        a: 5,
        h0: 0.2,
        b: 1.5,
        validFrom: iso(-2 * HOUR),
      });
      expect(wrongKind.status).toBe(400);
      expect(wrongKind.body.errors[0].field).toBe('deviceId');
      // Moving the first curve's end into the second's period: refused too, nothing changed.
      const stretched = await call(server, 'PUT', entityCalls(ratingCurveEntity).update, {
        token,
        body: { id: String(first.body.data.id), validTo: iso(6 * HOUR) },
      });
      expect(stretched.status).toBe(400);
      expect(stretched.body.errors[0].field).toBe('validFrom');

      // Before any curve: no flow. First curve: the check vector and 0 at or below H0. Second: 2×.
      await ingest(station, base - HOUR, { waterLevel: 1.5, sedimentConcentration: 2 });
      await ingest(station, base + HOUR, { waterLevel: 1.5, sedimentConcentration: 2 });
      await ingest(station, base + 2 * HOUR, { waterLevel: 2.5, sedimentConcentration: 2 });
      await ingest(station, base + 3 * HOUR, { waterLevel: 0.4, sedimentConcentration: 2 });
      await ingest(station, base + 6 * HOUR, { waterLevel: 1.5, sedimentConcentration: 3 });

      const report = await call(server, 'GET', MONITOR_REPORT_CALLS.query, {
        token,
        query: {
          area: 'bayonet',
          deviceIds: station.deviceId,
          keys: 'ratedFlow,ratedSedimentDischarge',
          start: iso(-2 * HOUR),
          end: iso(7 * HOUR),
          bucket: 'raw',
        },
      });
      expect(report.status).toBe(200);
      const data = report.body.data as AreaReport;
      expect(data.factors.map((factor) => [factor.key, factor.unit])).toEqual([
        ['ratedFlow', 'm³/s'],
        ['ratedSedimentDischarge', 'kg/s'],
      ]);
      const [flow, discharge] = data.series;
      expect(flow!.at).toEqual([base + HOUR, base + 2 * HOUR, base + 3 * HOUR, base + 6 * HOUR]);
      expect(flow!.avg.map((value) => value!.toFixed(2))).toEqual([
        '10.00',
        '30.31',
        '0.00',
        '20.00',
      ]);
      expect(discharge!.avg.map((value) => value!.toFixed(2))).toEqual([
        '20.00',
        '60.63',
        '0.00',
        '60.00',
      ]);
      expect(flow!.stats.max!.toFixed(2)).toBe('30.31');

      // Hour buckets: one flow per hour of a reading.
      const hourly = await call(server, 'GET', MONITOR_REPORT_CALLS.query, {
        token,
        query: {
          area: 'bayonet',
          deviceIds: station.deviceId,
          keys: 'waterLevel,ratedFlow',
          start: iso(0),
          end: iso(7 * HOUR),
          bucket: 'hour',
        },
      });
      expect(hourly.status).toBe(200);
      const hourlyFlow = (hourly.body.data as AreaReport).series.find(
        (one) => one.key === 'ratedFlow',
      );
      expect(hourlyFlow!.count).toEqual([1, 1, 1, 1]);
      // The xlsx export carries the derived factor by its name, with the computed values.
      const url = new URL(MONITOR_REPORT_CALLS.export, server.url);
      for (const [name, value] of Object.entries({
        area: 'bayonet',
        deviceIds: station.deviceId,
        keys: 'ratedFlow',
        start: iso(-2 * HOUR),
        end: iso(7 * HOUR),
        bucket: 'raw',
        format: 'xlsx',
      }))
        url.searchParams.set(name, value);
      const exported = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, cookie: 'language=en' },
      });
      expect(exported.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(
        Buffer.from(await exported.arrayBuffer()) as unknown as ExcelJS.Buffer,
      );
      const cells: unknown[] = [];
      workbook.worksheets[0]!.eachRow((row) => cells.push(...(row.values as unknown[])));
      expect(cells).toContain('Flow (rating curve)');
      expect(cells.some((cell) => typeof cell === 'number' && cell.toFixed(2) === '30.31')).toBe(
        true,
      );
      // Not a factor of this area's devices: a 400 naming keys.
      const unknown = await call(server, 'GET', MONITOR_REPORT_CALLS.query, {
        token,
        query: {
          area: 'bayonet',
          deviceIds: station.deviceId,
          keys: 'runoffFlow',
          start: iso(0),
          end: iso(7 * HOUR),
          bucket: 'hour',
        },
      });
      expect(unknown.status).toBe(400);
    });

    test('a runoff event is cut from known readings and totalled, once', async () => {
      const plot = await irrigationDevice(server.db, 'sediment_station');
      const set = await call(server, 'POST', AREA_SETTING_CALLS.update, {
        token,
        body: { area: 'sedimentFlow', deviceId: plot.deviceId, values: { plotArea: 50 } },
      });
      expect(set.status).toBe(200);
      const start = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
      // Rain: 1 mm four hours before (outside the 180 minutes counted), 5 + 5 mm just before.
      await ingest(plot, start - 4 * HOUR, { rainfall: 1 });
      await ingest(plot, start - 10 * MINUTE, { rainfall: 5 });
      await ingest(plot, start, { rainfall: 5, flow: 0 });
      // The hydrograph (L/s, every 5 minutes), then an hour and a half of no runoff.
      const hydrograph = [0.1, 0.3, 0.2, 0.1, 0];
      for (const [i, flow] of hydrograph.entries())
        await ingest(plot, start + (i + 1) * 5 * MINUTE, {
          flow,
          rainfall: 0,
          sedimentConcentration: 10,
        });
      for (let minutes = 30; minutes <= 120; minutes += 5)
        await ingest(plot, start + minutes * MINUTE, { flow: 0, rainfall: 0 });

      const detect = async () => {
        const before = (await runsOfKey(server.db, RUNOFF_DETECTION_KEY)).length;
        await bringDue(server.db, RUNOFF_DETECTION_KEY);
        await until(
          () => runsOfKey(server.db, RUNOFF_DETECTION_KEY),
          (runs) => runs.length > before && runs[runs.length - 1]!.state === 'succeeded',
          'the runoff detection ran',
        );
      };
      const events = async () => {
        const answer = await call(server, 'GET', entityCalls(runoffEventEntity).query, {
          token,
          query: { deviceId: plot.deviceId },
        });
        expect(answer.status).toBe(200);
        return answer.body.data.list as Array<Record<string, unknown>>;
      };
      await detect();
      const [event, ...more] = await events();
      expect(more).toEqual([]);
      expect(new Date(String(event!.startAt)).getTime()).toBe(start + 5 * MINUTE);
      expect(new Date(String(event!.endAt)).getTime()).toBe(start + 25 * MINUTE);
      // ∫ flow dt = (0.2 + 0.25 + 0.15 + 0.05) L/s × 300 s = 195 L; over 50 m²: 3.9 mm of 10 mm.
      expect(event).toMatchObject({
        ongoing: false,
        rainfall: 10,
        runoffVolume: 0.195,
        runoffDepth: 3.9,
        runoffCoefficient: 0.39,
        sedimentYield: 1.95,
        peakFlow: 0.3,
        plotArea: 50,
      });
      // Detected again over the same readings: the same one event.
      await detect();
      expect(await events()).toHaveLength(1);
      // A user confined to another zone does not see the plot's events.
      const zoned = await zonedAdmin(server, token, [await createZone(server.db, 'runoff')]);
      const hidden = await call(server, 'GET', entityCalls(runoffEventEntity).query, {
        token: zoned,
        query: { deviceId: plot.deviceId },
      });
      expect(hidden.status).toBe(200);
      expect(hidden.body.data.list).toEqual([]);
    });
  },
);
