import {
  entityCalls,
  PRODUCTS,
  rotationScheduleEntity,
  valveGroupEntity,
  type DeviceKind,
} from '@shuili/contract';
import { call } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';
import { expect } from 'vitest';
import type { Database } from '../../../db/database';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { runsOfKey, until } from '../../scheduler/scheduler-test-kit';
import { createKindDevice, createZone } from '../report/report-test-fixtures';
import { rotationStartKey, rotationStepKey } from './irrigation-keys';

/** The seeded product's thing model of a kind (the real valve, soil and weather models). */
export function productModel(kind: DeviceKind) {
  const product = PRODUCTS.find((one) => one.kind === kind);
  if (!product) throw new Error(`no product of kind ${kind}`);
  return product.thingModel;
}

/** A demo device of a kind with its real thing model, in a zone, at a place. */
export async function irrigationDevice(
  db: Database,
  kind: DeviceKind,
  options: { zoneId?: string; lat?: number; lng?: number; name?: string } = {},
): Promise<TestDevice> {
  const device = await createKindDevice(db, 'demo', kind, {
    thingModel: productModel(kind),
    namePrefix: options.name ?? kind,
    ...(options.zoneId ? { zoneId: options.zoneId } : {}),
  });
  if (options.lat !== undefined)
    await db.system((sql) =>
      sql.query('UPDATE iot_device SET lat = $2, lng = $3 WHERE id = $1', [
        device.deviceId,
        options.lat,
        options.lng,
      ]),
    );
  return device;
}

export { createZone };

/**
 * Moves a waiting trigger's time to now, as if its time had come (a valve's minutes, a
 * rotation's start time): the tests do not wait real minutes. Answers the time it was due.
 */
export async function bringDue(db: Database, key: string): Promise<Date> {
  const { rows } = await db.systemStatement<{ due_at: Date }>(
    `UPDATE scheduler_trigger t SET due_at = now(), fire_at = now()
       FROM (SELECT id, due_at FROM scheduler_trigger WHERE key = $1 AND state = 'waiting'
              FOR UPDATE) old
      WHERE t.id = old.id RETURNING old.due_at`,
    [key],
  );
  if (!rows[0]) throw new Error(`no waiting trigger ${key}`);
  return rows[0].due_at;
}

/** Every command recorded for a device, oldest first. */
export async function commandsOf(
  db: Database,
  deviceId: string,
): Promise<
  Array<{
    id: string;
    name: string;
    params: Record<string, unknown>;
    status: string;
    username: string;
  }>
> {
  const { rows } = await db.systemStatement<{
    id: string;
    name: string;
    params: string;
    status: string;
    username: string;
  }>(
    `SELECT c.id::text, c.name, c.params, c.status, c.username FROM iot_command c
      WHERE c.device_id = $1 ORDER BY c.id`,
    [deviceId],
  );
  return rows.map((row) => ({ ...row, params: JSON.parse(row.params) as Record<string, unknown> }));
}

/**
 * Issue 15's rotation on several nodes: a schedule of two valve groups over two valves (10 then
 * 15 minutes), saved through `server` and brought due while every node on the database polls it.
 * Checks that its start and each step ran exactly once and that each channel was opened once,
 * in order.
 */
export async function expectRotationRunsOnce(
  server: Pick<TestServer, 'url'>,
  db: Database,
  token: string,
): Promise<void> {
  const valves = [
    await irrigationDevice(db, 'irrigation_valve'),
    await irrigationDevice(db, 'irrigation_valve'),
  ];
  const group = async (channels: Array<[number, number]>) => {
    const added = await call(server, 'POST', entityCalls(valveGroupEntity).add, {
      token,
      body: {
        groupName: `Nodes group ${Date.now()} ${channels.join('-')}`,
        members: channels.map(([valve, channel]) => `${valves[valve]!.deviceId}:${channel}`),
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return String(added.body.data.id);
  };
  const groups = [
    await group([
      [0, 1],
      [0, 2],
      [1, 1],
    ]),
    await group([
      [1, 2],
      [1, 3],
    ]),
  ];
  const added = await call(server, 'POST', entityCalls(rotationScheduleEntity).add, {
    token,
    body: {
      scheduleName: `Nodes ${Date.now()}`,
      steps: [`${groups[0]}:10`, `${groups[1]}:15`],
      startTime: '05:30',
    },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const id = String(added.body.data.id);
  const ran = (key: string) =>
    until(
      () => runsOfKey(db, key),
      (runs) => runs[0]?.state === 'succeeded',
      `${key} ran`,
    );
  // Every node polls the same database; the start comes due for all of them at once.
  await bringDue(db, rotationStartKey(id));
  const [start] = await ran(rotationStartKey(id));
  const startedAt = start!.fire_at.getTime();
  await ran(rotationStepKey(id, startedAt, 0));
  await bringDue(db, rotationStepKey(id, startedAt, 1));
  await ran(rotationStepKey(id, startedAt, 1));

  for (const key of [
    rotationStartKey(id),
    rotationStepKey(id, startedAt, 0),
    rotationStepKey(id, startedAt, 1),
  ])
    expect(await runsOfKey(db, key)).toHaveLength(1);
  const opens = [
    ...(await commandsOf(db, valves[0]!.deviceId)),
    ...(await commandsOf(db, valves[1]!.deviceId)),
  ].filter((one) => one.name === 'openValve');
  expect(opens.map((one) => one.params)).toEqual([
    { channel: 1, durationMinutes: 10 },
    { channel: 2, durationMinutes: 10 },
    { channel: 1, durationMinutes: 10 },
    { channel: 2, durationMinutes: 15 },
    { channel: 3, durationMinutes: 15 },
  ]);
}
