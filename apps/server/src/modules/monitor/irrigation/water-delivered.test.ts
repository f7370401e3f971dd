import {
  IRRIGATION_CALLS,
  ROLE_OPERATOR,
  entityCalls,
  sysUserEntity,
  type WaterDelivered,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { instantOf, wallTimeOf } from '../../scheduler/recurrence';
import { tenantIdOf } from '../../scheduler/scheduler-test-kit';
import { createZone, irrigationDevice } from './irrigation-test-kit';

const ZONE = 'Asia/Shanghai';
const two = (value: number) => String(value).padStart(2, '0');

/** A local calendar day `daysAgo` before today, and instants on it. */
function localDay(daysAgo: number) {
  const wall = wallTimeOf(new Date(Date.now() - daysAgo * 86_400_000), ZONE);
  return {
    text: `${wall.year}-${two(wall.month)}-${two(wall.day)}`,
    at: (hour: number, minute = 0) =>
      instantOf(
        { year: wall.year, month: wall.month, day: wall.day, hour, minute },
        ZONE,
      ).getTime(),
  };
}

describe.each(BACKENDS)('water delivered and open hours on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  let zoneA: string;
  let zoneB: string;
  let valveA: TestDevice;
  let valveB: TestDevice;
  const first = localDay(10);
  const second = localDay(9);
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const tenantId = await tenantIdOf(server.db, 'demo');
    zoneA = await createZone(server.db, tenantId, `Water A ${backend}`);
    zoneB = await createZone(server.db, tenantId, `Water B ${backend}`);
    valveA = await irrigationDevice(server.db, 'irrigation_valve', { zoneId: zoneA });
    valveB = await irrigationDevice(server.db, 'irrigation_valve', { zoneId: zoneB });
    const readings: Array<[TestDevice, number, Record<string, number>]> = [
      // Day one: the first reading ever adds nothing, then 30 m³; open 08:00 to 10:30.
      [valveA, first.at(0, 30), { cumulativeVolume: 100 }],
      [valveA, first.at(8), { valve1State: 1 }],
      [valveA, first.at(10, 30), { valve1State: 0 }],
      [valveA, first.at(12), { cumulativeVolume: 130 }],
      // Day two: 20 m³, then the meter is replaced (counts from 0 again): 5 + 20 more; channel 2
      // opens at 18:00 and stays open to the end of the range.
      [valveA, second.at(1), { cumulativeVolume: 150 }],
      [valveA, second.at(10), { cumulativeVolume: 5 }],
      [valveA, second.at(18), { valve2State: 1 }],
      [valveA, second.at(20), { cumulativeVolume: 25 }],
      [valveB, first.at(9), { cumulativeVolume: 1000 }],
      [valveB, second.at(9), { cumulativeVolume: 1012.5 }],
    ];
    for (const [device, ts, values] of readings)
      await server.app.telemetry.ingest.handle(telemetryUplink(device, { ts, values }));
  });
  afterAll(async () => server?.close());

  const query = (extra: Record<string, string>, as = token) =>
    call<{ data: WaterDelivered }>(server, 'GET', IRRIGATION_CALLS.waterDelivered, {
      token: as,
      query: { start: first.text, end: second.text, ...extra },
    });
  const ofZone = (data: WaterDelivered, zoneId: string) =>
    data.volumes.filter((row) => row.zoneId === zoneId);

  it.skipIf(!available)('per zone per day from the meter increases, resets included', async () => {
    const answer = await query({ bucket: 'day' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ofZone(answer.body.data, zoneA).map((row) => [row.bucket, row.volume])).toEqual([
      [first.text, 30],
      [second.text, 45],
    ]);
    expect(ofZone(answer.body.data, zoneB).map((row) => [row.bucket, row.volume])).toEqual([
      [second.text, 12.5],
    ]);
    expect(ofZone(answer.body.data, zoneA)[0]!.zoneName).toBe(`Water A ${backend}`);
    const month = await query({ bucket: 'month', zoneId: zoneA });
    expect(month.body.data.volumes.every((row) => row.zoneId === zoneA)).toBe(true);
    expect(month.body.data.total).toBe(75);
  });

  it.skipIf(!available)('open hours per channel from the valve state readings', async () => {
    const answer = await query({ zoneId: zoneA });
    const hours = answer.body.data.openHours
      .filter((row) => row.deviceId === valveA.deviceId)
      .map((row) => [row.channel, row.hours]);
    expect(hours).toEqual([
      [1, 2.5],
      [2, 6],
    ]);
    // Only the first day: channel 1's 2.5 h; channel 2 opened later.
    const oneDay = await call<{ data: WaterDelivered }>(
      server,
      'GET',
      IRRIGATION_CALLS.waterDelivered,
      {
        token,
        query: { start: first.text, end: first.text, zoneId: zoneA },
      },
    );
    expect(
      oneDay.body.data.openHours
        .filter((row) => row.deviceId === valveA.deviceId)
        .map((row) => [row.channel, row.hours]),
    ).toEqual([[1, 2.5]]);
  });

  it.skipIf(!available)(
    'a zone-confined operator sees their zones only; bad input is a 400',
    async () => {
      const { rows } = await server.db.systemStatement<{ org_id: string; role_id: string }>(
        `SELECT (SELECT id::text FROM sys_org WHERE tenant_id = t.id ORDER BY id LIMIT 1) AS org_id,
              (SELECT id::text FROM sys_role WHERE tenant_id = t.id AND role_code = $1) AS role_id
         FROM tenant t WHERE t.tenant_code = 'demo'`,
        [ROLE_OPERATOR],
      );
      const username = `water${backend}`;
      const created = await call(server, 'POST', entityCalls(sysUserEntity).add, {
        token,
        body: {
          username,
          nickname: username,
          password: 'Water-user-42',
          orgId: rows[0]!.org_id,
          roleIds: [rows[0]!.role_id],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      await call(server, 'POST', '/api/admin/syszone/assignZone', {
        token,
        body: { userId: String(created.body.data.id), zoneIds: [zoneB] },
      });
      const zoned = (await signIn(server, 'demo', username, 'Water-user-42')).access_token;
      const seen = await query({}, zoned);
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(new Set(seen.body.data.volumes.map((row) => row.zoneId))).toEqual(new Set([zoneB]));
      expect(seen.body.data.openHours.some((row) => row.deviceId === valveA.deviceId)).toBe(false);
      // Asking for another zone does not widen the scope.
      expect((await query({ zoneId: zoneA }, zoned)).body.data.total).toBe(0);
      const bad = await call(server, 'GET', IRRIGATION_CALLS.waterDelivered, {
        token,
        lang: 'en',
        query: { start: '2026-13-01', end: second.text, bucket: 'year' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
        'bucket',
        'start',
      ]);
    },
  );
});
