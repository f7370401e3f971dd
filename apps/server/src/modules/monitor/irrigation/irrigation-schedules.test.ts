import {
  entityCalls,
  IRRIGATION_CALLS,
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
  type ScheduleRun,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { telemetryUplink, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { wallTimeOf } from '../../scheduler/recurrence';
import {
  restartableServer,
  runsOfKey,
  tenantIdOf,
  triggerOfKey,
  until,
} from '../../scheduler/scheduler-test-kit';
import { rotationStartKey, rotationStepKey, soilRuleKey } from './irrigation-keys';
import { bringDue, commandsOf, createZone, irrigationDevice } from './irrigation-test-kit';

let sequence = 0;
const unique = (what: string) => `${what} ${Date.now() % 100_000}-${(sequence += 1)}`;

/** A valve group over the channels given, made through the API. */
async function addGroup(
  server: TestServer,
  token: string,
  members: Array<[TestDevice, number]>,
): Promise<string> {
  const added = await call(server, 'POST', entityCalls(valveGroupEntity).add, {
    token,
    body: {
      groupName: unique('Group'),
      members: members.map(([device, channel]) => `${device.deviceId}:${channel}`),
    },
  });
  if (added.status !== 200) throw new Error(JSON.stringify(added.body));
  return String(added.body.data.id);
}

/** A rotation schedule at 06:00 every day over the groups and minutes given. */
async function addRotation(
  server: TestServer,
  token: string,
  steps: Array<[string, number]>,
): Promise<{ id: string; name: string }> {
  const name = unique('Rotation');
  const added = await call(server, 'POST', entityCalls(rotationScheduleEntity).add, {
    token,
    body: {
      scheduleName: name,
      steps: steps.map(([group, minutes]) => `${group}:${minutes}`),
      startTime: '06:00',
      daysOfWeek: ['1', '2', '3', '4', '5', '6', '7'],
    },
  });
  if (added.status !== 200) throw new Error(JSON.stringify(added.body));
  return { id: String(added.body.data.id), name };
}

const succeeded = (db: TestServer['db'], key: string) =>
  until(
    () => runsOfKey(db, key),
    (runs) => runs.length > 0 && runs.every((run) => run.state !== 'running'),
    `${key} ran`,
  );

describe.each(BACKENDS)(
  'rotation schedules and soil rules on $backend',
  ({ backend, available }) => {
    let server: TestServer;
    let token: string;
    let zoneId: string;
    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer({ backend });
      token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      zoneId = await createZone(server.db, await tenantIdOf(server.db, 'demo'), `Sched ${backend}`);
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)(
      'a channel in consecutive groups opens once for both, and is not opened again',
      async () => {
        const valveA = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const valveB = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const first = await addGroup(server, token, [
          [valveA, 1],
          [valveA, 2],
        ]);
        const second = await addGroup(server, token, [
          [valveA, 2],
          [valveB, 1],
        ]);
        const rotation = await addRotation(server, token, [
          [first, 2],
          [second, 3],
        ]);
        const startKey = rotationStartKey(rotation.id);
        await bringDue(server.db, startKey);
        const [started] = await succeeded(server.db, startKey);
        const startedAt = started!.fire_at.getTime();
        const stepOne = rotationStepKey(rotation.id, startedAt, 0);
        await succeeded(server.db, stepOne);
        const stepTwo = rotationStepKey(rotation.id, startedAt, 1);
        await bringDue(server.db, stepTwo);
        const [second2] = await succeeded(server.db, stepTwo);
        expect(second2!.result).toMatchObject({ decision: 'opened', step: 2, sent: 1 });
        // Channel 2 of A runs through both steps on one timer: no close and open at the seam.
        expect((await commandsOf(server.db, valveA.deviceId)).map((one) => one.params)).toEqual([
          { channel: 1, durationMinutes: 2 },
          { channel: 2, durationMinutes: 5 },
        ]);
        expect((await commandsOf(server.db, valveB.deviceId)).map((one) => one.params)).toEqual([
          { channel: 1, durationMinutes: 3 },
        ]);
      },
    );

    it.skipIf(!available)(
      'a rotation opens its groups in turn at its local start time, holding their channels',
      async () => {
        const valveA = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const valveB = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const first = await addGroup(server, token, [
          [valveA, 1],
          [valveA, 2],
        ]);
        const second = await addGroup(server, token, [[valveB, 1]]);
        const rotation = await addRotation(server, token, [
          [first, 2],
          [second, 3],
        ]);
        const startKey = rotationStartKey(rotation.id);
        const start = await triggerOfKey(server.db, startKey);
        // Next 06:00 on the tenant's clock (Asia/Shanghai), within a day.
        expect(wallTimeOf(start!.due_at, 'Asia/Shanghai')).toMatchObject({ hour: 6, minute: 0 });
        expect(start!.due_at.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

        await bringDue(server.db, startKey);
        const [started] = await succeeded(server.db, startKey);
        expect(started!.result).toMatchObject({ decision: 'started', steps: 2 });
        const startedAt = started!.fire_at.getTime();
        const stepOne = rotationStepKey(rotation.id, startedAt, 0);
        const [opened] = await succeeded(server.db, stepOne);
        expect(opened!.result).toMatchObject({ decision: 'opened', step: 1, sent: 2, refused: 0 });
        expect(
          (await commandsOf(server.db, valveA.deviceId)).map((one) => [
            one.name,
            one.params,
            one.username,
          ]),
        ).toEqual([
          ['openValve', { channel: 1, durationMinutes: 2 }, `rotation: ${rotation.name}`],
          ['openValve', { channel: 2, durationMinutes: 2 }, `rotation: ${rotation.name}`],
        ]);

        // The second group's channel is the rotation's until it ends: a manual open is refused.
        const manual = await call(server, 'POST', '/api/iot/command/sendCommand', {
          token,
          lang: 'en',
          body: {
            deviceId: valveB.deviceId,
            name: 'openValve',
            params: { channel: 1, durationMinutes: 10 },
          },
        });
        expect(manual.status).toBe(409);
        expect(manual.body.message).toContain(`is held by ${rotation.name}`);

        // The next step is due when the first group's minutes are over.
        const stepTwo = rotationStepKey(rotation.id, startedAt, 1);
        expect((await bringDue(server.db, stepTwo)).getTime()).toBe(startedAt + 2 * 60_000);
        const [second2] = await succeeded(server.db, stepTwo);
        expect(second2!.result).toMatchObject({ decision: 'opened', step: 2, sent: 1 });
        expect((await commandsOf(server.db, valveB.deviceId)).map((one) => one.params)).toEqual([
          { channel: 1, durationMinutes: 3 },
        ]);
        // Tomorrow's start waits; the runs list shows what each run decided.
        const next = await triggerOfKey(server.db, startKey);
        expect(next?.state).toBe('waiting');
        expect(wallTimeOf(next!.due_at, 'Asia/Shanghai')).toMatchObject({ hour: 6, minute: 0 });
        const runs = await call<{ data: ScheduleRun[] }>(
          server,
          'GET',
          IRRIGATION_CALLS.scheduleRuns,
          { token, query: { kind: 'rotation', id: rotation.id } },
        );
        expect(runs.body.data.map((run) => [run.what, run.decision, run.ownerName])).toEqual([
          ['step', 'opened', rotation.name],
          ['step', 'opened', rotation.name],
          ['start', 'started', rotation.name],
        ]);

        // Stopped, the rotation lets its channels go.
        const close = {
          deviceId: valveA.deviceId,
          name: 'closeValve',
          params: { channel: 1 },
        };
        expect(
          (await call(server, 'POST', '/api/iot/command/sendCommand', { token, body: close }))
            .status,
        ).toBe(409);
        const stopped = await call(server, 'POST', IRRIGATION_CALLS.stopRotation, {
          token,
          body: { scheduleId: rotation.id },
        });
        expect(stopped.status).toBe(200);
        expect(
          (await call(server, 'POST', '/api/iot/command/sendCommand', { token, body: close }))
            .status,
        ).toBe(200);
      },
    );

    it.skipIf(!available)(
      'a soil rule is skipped after rain at the nearest weather station, else opens and then stops',
      async () => {
        const now = Date.now();
        const soil = await irrigationDevice(server.db, 'soil_moisture', {
          zoneId,
          lat: 30,
          lng: 120,
        });
        const near = await irrigationDevice(server.db, 'weather_station', {
          lat: 30.01,
          lng: 120.01,
        });
        const far = await irrigationDevice(server.db, 'weather_station', { lat: 31, lng: 121 });
        const ingest = (device: TestDevice, ts: number, values: Record<string, number>) =>
          server.app.telemetry.ingest.handle(telemetryUplink(device, { ts, values }));
        await ingest(soil, now - 60_000, { soilMoisture20: 12 });
        await ingest(near, now - 30 * 3600_000, { rainfall: 30 }); // more than a day ago
        await ingest(near, now - 2 * 3600_000, { rainfall: 5 });
        await ingest(near, now - 3600_000, { rainfall: 7.4 });
        await ingest(far, now - 3600_000, { rainfall: 0 });
        const valveC = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const valveD = await irrigationDevice(server.db, 'irrigation_valve', { zoneId });
        const groupC = await addGroup(server, token, [[valveC, 1]]);
        const groupD = await addGroup(server, token, [[valveD, 1]]);
        const rule = (name: string, groupId: string, rainSkipMm: number) => ({
          ruleName: name,
          deviceId: soil.deviceId,
          groupId,
          depth: '20',
          startBelow: 18,
          stopAbove: 30,
          rainSkipMm,
          maxMinutes: 90,
        });
        const add = entityCalls(soilMoistureRuleEntity).add;
        const refused = await call(server, 'POST', add, {
          token,
          lang: 'en',
          body: { ...rule(unique('Bad'), groupC, 10), stopAbove: 15 },
        });
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0]).toMatchObject({ field: 'stopAbove' });
        expect(refused.body.errors[0].message).toContain('above the start level (18 %)');

        const rainy = await call(server, 'POST', add, {
          token,
          body: rule(unique('Rainy'), groupC, 10),
        });
        expect(rainy.status, JSON.stringify(rainy.body)).toBe(200);
        const [skipped] = await succeeded(server.db, soilRuleKey(String(rainy.body.data.id)));
        expect(skipped).toMatchObject({ state: 'skipped' });
        expect(skipped!.result).toMatchObject({
          decision: 'skipped',
          why: 'rain',
          rainMm: 12.4,
          station: near.deviceNo,
          reason: `skipped: 12.4 mm rain in 24 h at ${near.deviceNo}`,
        });
        expect(await commandsOf(server.db, valveC.deviceId)).toEqual([]);

        const thirsty = await call(server, 'POST', add, {
          token,
          body: rule(unique('Thirsty'), groupD, 20),
        });
        const key = soilRuleKey(String(thirsty.body.data.id));
        const [started] = await succeeded(server.db, key);
        expect(started!.result).toMatchObject({ decision: 'started', moisture: 12, sent: 1 });
        const opened = await commandsOf(server.db, valveD.deviceId);
        expect(opened.map((one) => [one.name, one.params])).toEqual([
          ['openValve', { channel: 1, durationMinutes: 90 }],
        ]);
        expect(opened[0]!.username).toContain('soil rule: Thirsty');

        // Wet again: the next evaluation closes the group.
        await ingest(soil, Date.now(), { soilMoisture20: 34.5 });
        await bringDue(server.db, key);
        await until(
          () => runsOfKey(server.db, key),
          (runs) => runs.length === 2 && runs[1]!.state === 'succeeded',
          'the second evaluation',
        );
        const [, stopped] = await runsOfKey(server.db, key);
        expect(stopped!.result).toMatchObject({ decision: 'stopped', moisture: 34.5 });
        expect((await commandsOf(server.db, valveD.deviceId)).map((one) => one.name)).toEqual([
          'openValve',
          'closeValve',
        ]);
        const runs = await call<{ data: ScheduleRun[] }>(
          server,
          'GET',
          IRRIGATION_CALLS.scheduleRuns,
          { token, query: { kind: 'soilRule', id: String(rainy.body.data.id) } },
        );
        expect(runs.body.data[0]!.reason).toBe(`skipped: 12.4 mm rain in 24 h at ${near.deviceNo}`);
      },
    );
  },
);

describe.each(BACKENDS)('a rotation across a restart on $backend', ({ backend, available }) => {
  it.skipIf(!available)(
    'a rotation scheduled before a restart runs after it',
    async () => {
      const database = await restartableServer(backend);
      try {
        const first = await database.start();
        const firstToken = (await signIn(first, 'demo', 'admin', 'admin123')).access_token;
        const valve = await irrigationDevice(first.db, 'irrigation_valve');
        const group = await addGroup(first, firstToken, [[valve, 4]]);
        const rotation = await addRotation(first, firstToken, [[group, 5]]);
        await first.close();

        const second = await database.start();
        try {
          const startKey = rotationStartKey(rotation.id);
          expect((await triggerOfKey(second.db, startKey))?.state).toBe('waiting');
          await bringDue(second.db, startKey);
          const [started] = await succeeded(second.db, startKey);
          expect(started).toMatchObject({ node: second.app.scheduler.node, state: 'succeeded' });
          const [step] = await succeeded(
            second.db,
            rotationStepKey(rotation.id, started!.fire_at.getTime(), 0),
          );
          expect(step!.result).toMatchObject({ decision: 'opened', sent: 1 });
          expect((await commandsOf(second.db, valve.deviceId)).map((one) => one.params)).toEqual([
            { channel: 4, durationMinutes: 5 },
          ]);
        } finally {
          await second.close();
        }
      } finally {
        await database.drop();
      }
    },
    180_000,
  );
});
