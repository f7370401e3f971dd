import {
  entityCalls,
  IRRIGATION_CALLS,
  valveGroupEntity,
  type BatchValveControlResult,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS } from '@shuili/test-support/test-server';
import {
  adminToken,
  connectDevice,
  eventually,
  startControlServer,
  type ControlServer,
} from '../../iot/command/control-test-kit';
import { runsOfKey, tenantIdOf, triggerOfKey } from '../../scheduler/scheduler-test-kit';
import { valveCloseKey } from './irrigation-keys';
import { bringDue, commandsOf, createZone, irrigationDevice } from './irrigation-test-kit';

const SEND = '/api/iot/command/sendCommand';

describe.each(BACKENDS)('irrigation control on $backend', ({ backend, available }) => {
  let control: ControlServer;
  let token: string;
  let zoneId: string;
  beforeAll(async () => {
    if (!available) return;
    control = await startControlServer(backend);
    token = await adminToken(control.server);
    const tenantId = await tenantIdOf(control.server.db, 'demo');
    zoneId = await createZone(control.server.db, tenantId, `Irrigation control ${backend}`);
  });
  afterAll(async () => control?.close());

  const send = (deviceId: string, name: string, params: Record<string, unknown>) =>
    call(control.server, 'POST', SEND, { token, body: { deviceId, name, params } });

  /** A valve controller on MQTT that acknowledges every command it gets. */
  const answeringValve = async () => {
    const device = await irrigationDevice(control.server.db, 'irrigation_valve', { zoneId });
    const mqttDevice = await connectDevice(control.server, device);
    mqttDevice.client.on('message', (_topic, payload) => {
      const { id } = JSON.parse(payload.toString()) as { id: string };
      // A command arriving while the test disconnects the device goes unanswered, as it would
      // from a real one: the publish is refused then, and that is not the test's failure.
      mqttDevice.client
        .publishAsync(`t/demo/d/${device.deviceNo}/cmd/ack`, JSON.stringify({ id, ok: true }), {
          qos: 1,
        })
        .catch(() => undefined);
    });
    await eventually(
      () =>
        control.server.db.systemStatement<{ online: boolean }>(
          'SELECT coalesce(online, false) AS online FROM iot_device WHERE id = $1',
          [device.deviceId],
        ),
      (result) => result.rows[0]?.online === true,
      'valve online',
    );
    return { device, mqttDevice };
  };

  it.skipIf(!available)(
    'a timed open closes itself: the server sends closeValve for the channel at the end',
    async () => {
      const { device, mqttDevice } = await answeringValve();
      const opened = await send(device.deviceId, 'openValve', { channel: 2, durationMinutes: 5 });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      expect(await mqttDevice.next()).toMatchObject({ name: 'openValve', params: { channel: 2 } });
      const key = valveCloseKey(device.deviceId, 2);
      const trigger = await triggerOfKey(control.server.db, key);
      expect(trigger?.state).toBe('waiting');
      // Due five minutes after the open was recorded.
      expect(trigger!.due_at.getTime() - Date.parse(opened.body.data.createdAt)).toBe(5 * 60_000);
      await bringDue(control.server.db, key);
      expect(await mqttDevice.next()).toMatchObject({ name: 'closeValve', params: { channel: 2 } });
      const [run] = await eventually(
        () => runsOfKey(control.server.db, key),
        (runs) => runs[0]?.state === 'succeeded',
        'the close run ended',
      );
      expect(run!.result).toMatchObject({ decision: 'closed' });
      const records = await commandsOf(control.server.db, device.deviceId);
      expect(records.map((one) => [one.name, one.username])).toEqual([
        ['openValve', 'admin'],
        ['closeValve', 'timer'],
      ]);
      await eventually(
        () => commandsOf(control.server.db, device.deviceId),
        (all) => all[1]?.status === 'succeeded',
        'the close acknowledged',
      );
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'an offline valve gets the close when it comes back, after its open',
    async () => {
      const device = await irrigationDevice(control.server.db, 'irrigation_valve', { zoneId });
      const opened = await send(device.deviceId, 'openValve', { channel: 1, durationMinutes: 3 });
      expect(opened.body.data.status).toBe('pending');
      const key = valveCloseKey(device.deviceId, 1);
      await bringDue(control.server.db, key);
      await eventually(
        () => runsOfKey(control.server.db, key),
        (runs) => runs[0]?.state === 'succeeded',
        'the close recorded while the valve is away',
      );
      expect(
        (await commandsOf(control.server.db, device.deviceId)).map((one) => one.status),
      ).toEqual(['pending', 'pending']);
      const mqttDevice = await connectDevice(control.server, device);
      expect(await mqttDevice.next()).toMatchObject({ name: 'openValve', params: { channel: 1 } });
      expect(await mqttDevice.next()).toMatchObject({ name: 'closeValve', params: { channel: 1 } });
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'a manual close ends the timer; a second open for another duration is refused',
    async () => {
      const { device, mqttDevice } = await answeringValve();
      const key = valveCloseKey(device.deviceId, 3);
      expect(
        (await send(device.deviceId, 'openValve', { channel: 3, durationMinutes: 30 })).status,
      ).toBe(200);
      await eventually(
        () => commandsOf(control.server.db, device.deviceId),
        (all) => all[0]?.status === 'succeeded',
        'the open acknowledged',
      );
      const again = await call(control.server, 'POST', SEND, {
        token,
        lang: 'en',
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 3, durationMinutes: 10 },
        },
      });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain('Channel 3');
      expect(again.body.message).toContain('already open for 30 min');
      const zh = await call(control.server, 'POST', SEND, {
        token,
        lang: 'zh',
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 3, durationMinutes: 10 },
        },
      });
      expect(zh.body.message).toContain('已定时开启 30 分钟');
      // Another channel of the same controller is no conflict.
      expect(
        (await send(device.deviceId, 'openValve', { channel: 4, durationMinutes: 10 })).status,
      ).toBe(200);
      expect((await send(device.deviceId, 'closeValve', { channel: 3 })).status).toBe(200);
      expect((await triggerOfKey(control.server.db, key))?.state).toBe('cancelled');
      expect(
        (await triggerOfKey(control.server.db, valveCloseKey(device.deviceId, 4)))?.state,
      ).toBe('waiting');
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)('a gate movement is refused while another is under way', async () => {
    const gate = await irrigationDevice(control.server.db, 'sluice_gate', { zoneId });
    expect((await send(gate.deviceId, 'openGate', {})).body.data.status).toBe('pending');
    const set = await call(control.server, 'POST', SEND, {
      token,
      lang: 'en',
      body: { deviceId: gate.deviceId, name: 'setGateOpening', params: { opening: 1.2 } },
    });
    expect(set.status).toBe(409);
    expect(set.body.message).toContain('is still carrying out openGate');
    // Stopping the gate is never refused.
    expect((await send(gate.deviceId, 'stopGate', {})).status).toBe(200);
  });

  it.skipIf(!available)(
    'valve groups take irrigation valve channels only, and batch control reports per device',
    async () => {
      const valveA = await irrigationDevice(control.server.db, 'irrigation_valve', { zoneId });
      const valveB = await irrigationDevice(control.server.db, 'irrigation_valve', { zoneId });
      const soil = await irrigationDevice(control.server.db, 'soil_moisture', { zoneId });
      const add = entityCalls(valveGroupEntity).add;
      const bad = await call(control.server, 'POST', add, {
        token,
        lang: 'en',
        body: {
          groupName: `Bad group ${backend}`,
          zoneId,
          members: [`${valveA.deviceId}:5`, `${soil.deviceId}:1`, 'x'],
        },
      });
      expect(bad.status).toBe(400);
      const messages = (bad.body.errors as Array<{ field: string; message: string }>).map(
        (error) => error.message,
      );
      expect(messages.join('\n')).toContain('has no channel 5 (1 to 4)');
      expect(messages.join('\n')).toContain('is not an irrigation valve');
      expect(messages.join('\n')).toContain('x is not a device and channel');
      const group = await call(control.server, 'POST', add, {
        token,
        body: {
          groupName: `Group ${backend}`,
          zoneId,
          members: [`${valveA.deviceId}:1`, `${valveA.deviceId}:2`, `${valveB.deviceId}:1`],
        },
      });
      expect(group.status, JSON.stringify(group.body)).toBe(200);
      const groupId = String(group.body.data.id);
      // Channel 2 of valve A is open already for another duration: that one is refused.
      expect(
        (await send(valveA.deviceId, 'openValve', { channel: 2, durationMinutes: 45 })).status,
      ).toBe(200);
      const batch = await call<{ data: BatchValveControlResult }>(
        control.server,
        'POST',
        IRRIGATION_CALLS.batchValveControl,
        { token, lang: 'en', body: { groupId, action: 'open', durationMinutes: 20 } },
      );
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      const result = batch.body.data;
      expect([result.accepted, result.refused]).toEqual([2, 1]);
      const a = result.devices.find((one) => one.deviceId === valveA.deviceId)!;
      expect(a.channels.map((one) => [one.channel, one.accepted])).toEqual([
        [1, true],
        [2, false],
      ]);
      expect(a.channels[1]!.message).toContain('openValve');
      const b = result.devices.find((one) => one.deviceId === valveB.deviceId)!;
      expect(b).toMatchObject({ accepted: 1, refused: 0 });
      // Opening needs a duration; a zone-wide close sends one close per channel of its valves.
      const noDuration = await call(control.server, 'POST', IRRIGATION_CALLS.batchValveControl, {
        token,
        lang: 'en',
        body: { groupId, action: 'open' },
      });
      expect(noDuration.status).toBe(400);
      expect(noDuration.body.errors[0].field).toBe('durationMinutes');
      const zoneClose = await call<{ data: BatchValveControlResult }>(
        control.server,
        'POST',
        IRRIGATION_CALLS.batchValveControl,
        { token, body: { zoneId, action: 'close' } },
      );
      expect(zoneClose.status, JSON.stringify(zoneClose.body)).toBe(200);
      const mine = zoneClose.body.data.devices.filter((one) =>
        [valveA.deviceId, valveB.deviceId].includes(one.deviceId),
      );
      expect(mine.map((one) => one.channels.length)).toEqual([4, 4]);
      expect(zoneClose.body.data.devices.some((one) => one.deviceId === soil.deviceId)).toBe(false);
      // The closes ended the timers of the channels they closed.
      expect(
        (await triggerOfKey(control.server.db, valveCloseKey(valveB.deviceId, 1)))?.state,
      ).toBe('cancelled');
    },
  );
});
