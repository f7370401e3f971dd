import { entityCalls, rotationScheduleEntity, valveGroupEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
} from '@shuili/test-support/test-server';
import { runsOfKey, until } from '../../scheduler/scheduler-test-kit';
import { rotationStartKey, rotationStepKey } from './irrigation-keys';
import { bringDue, commandsOf, irrigationDevice } from './irrigation-test-kit';

describe.skipIf(!TEST_DATABASE_URL)('a rotation schedule on two server nodes', () => {
  let first: TestServer;
  let second: TestServer;
  let token: string;
  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres' });
    second = await startSecondNode(first);
    token = (await signIn(first, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const ran = (key: string) =>
    until(
      () => runsOfKey(first.db, key),
      (runs) => runs[0]?.state === 'succeeded',
      `${key} ran`,
    );

  it('runs each start and step exactly once, each channel opened once', async () => {
    const valves = [
      await irrigationDevice(first.db, 'irrigation_valve'),
      await irrigationDevice(first.db, 'irrigation_valve'),
    ];
    const group = async (channels: Array<[number, number]>) => {
      const added = await call(first, 'POST', entityCalls(valveGroupEntity).add, {
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
    const added = await call(first, 'POST', entityCalls(rotationScheduleEntity).add, {
      token,
      body: {
        scheduleName: `Two nodes ${Date.now()}`,
        steps: [`${groups[0]}:10`, `${groups[1]}:15`],
        startTime: '05:30',
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = String(added.body.data.id);
    // Both nodes poll the same database; the start comes due for both at once.
    await bringDue(first.db, rotationStartKey(id));
    const [start] = await ran(rotationStartKey(id));
    const startedAt = start!.fire_at.getTime();
    await ran(rotationStepKey(id, startedAt, 0));
    await bringDue(second.db, rotationStepKey(id, startedAt, 1));
    await ran(rotationStepKey(id, startedAt, 1));

    for (const key of [
      rotationStartKey(id),
      rotationStepKey(id, startedAt, 0),
      rotationStepKey(id, startedAt, 1),
    ])
      expect(await runsOfKey(first.db, key)).toHaveLength(1);
    const opens = [
      ...(await commandsOf(first.db, valves[0]!.deviceId)),
      ...(await commandsOf(first.db, valves[1]!.deviceId)),
    ].filter((one) => one.name === 'openValve');
    expect(opens.map((one) => one.params)).toEqual([
      { channel: 1, durationMinutes: 10 },
      { channel: 2, durationMinutes: 10 },
      { channel: 1, durationMinutes: 10 },
      { channel: 2, durationMinutes: 15 },
      { channel: 3, durationMinutes: 15 },
    ]);
  });
});
