import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS } from '@shuili/test-support/test-server';
import {
  adminToken,
  commandDetail,
  connectDevice,
  createControlDevice,
  eventually,
  startControlServer,
  type ControlServer,
} from './control-test-kit';
import { noGrantUser } from '@shuili/test-support/no-grant-user';

const SEND = '/api/iot/command/sendCommand';

describe.each(BACKENDS)('commands on $backend', ({ backend, available }) => {
  let control: ControlServer;
  let token: string;
  beforeAll(async () => {
    if (!available) return;
    control = await startControlServer(backend);
    token = await adminToken(control.server);
  });
  afterAll(async () => control?.close());

  /** Waits until the server sees the device online. */
  const seenOnline = (device: { deviceId: string }) =>
    eventually(
      () =>
        call(control.server, 'GET', '/api/iot/command/queryDeviceControl', {
          token,
          query: { deviceId: device.deviceId },
        }),
      (result) => result.body.data?.online === true,
      'device online',
    );

  /** A new controllable device, connected over MQTT and seen online by the server. */
  const onlineDevice = async () => {
    const device = await createControlDevice(control.server.db);
    const mqttDevice = await connectDevice(control.server, device);
    await seenOnline(device);
    return { device, mqttDevice };
  };
  const status = async (id: string) =>
    (await commandDetail(control.server, token, id)).body.data.status as string;

  it.skipIf(!available)(
    'a command reaches the device over MQTT and its acknowledgement completes the record',
    async () => {
      const { server } = control;
      const { device, mqttDevice } = await onlineDevice();
      const sent = await call(server, 'POST', SEND, {
        token,
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 2, durationMinutes: 10 },
        },
      });
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({
        name: 'openValve',
        status: 'sent',
        username: 'admin',
      });
      const payload = await mqttDevice.next();
      expect(payload).toMatchObject({
        id: sent.body.data.id,
        name: 'openValve',
        params: { channel: 2, durationMinutes: 10 },
      });
      expect(payload.expiresAt).toBeGreaterThan(Date.now());
      await mqttDevice.client.publishAsync(
        `t/demo/d/${device.deviceNo}/cmd/ack`,
        JSON.stringify({ id: payload.id, ok: true }),
        { qos: 1 },
      );
      const done = await eventually(
        () => commandDetail(server, token, sent.body.data.id),
        (result) => result.body.data.status !== 'sent',
        'acknowledged',
      );
      expect(done.body.data).toMatchObject({ status: 'succeeded' });
      expect(done.body.data.latencyMs).toBeGreaterThanOrEqual(0);
      expect(done.body.data.ackedAt).not.toBeNull();

      // A refusal keeps the device's reason; setProperty carries writable values.
      const set = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'setProperty', params: { valve: 1 } },
      });
      expect(set.status).toBe(200);
      const setPayload = await mqttDevice.next();
      expect(setPayload).toMatchObject({ name: 'setProperty', params: { valve: 1 } });
      await mqttDevice.client.publishAsync(
        `t/demo/d/${device.deviceNo}/cmd/ack`,
        JSON.stringify({ id: setPayload.id, ok: false, message: 'valve jammed' }),
        { qos: 1 },
      );
      const failed = await eventually(
        () => commandDetail(server, token, set.body.data.id),
        (result) => result.body.data.status !== 'sent',
        'refused',
      );
      expect(failed.body.data).toMatchObject({ status: 'failed', result: 'valve jammed' });

      // The operation records list them through the entity's own query.
      const records = await call(server, 'GET', '/api/iot/command/queryCommand', {
        token,
        query: { deviceId: device.deviceId },
      });
      expect(records.body.data.total).toBe(2);
      expect(records.body.data.list.map((row: { status: string }) => row.status).sort()).toEqual([
        'failed',
        'succeeded',
      ]);
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'an offline device gets its pending command once on reconnect, even if two nodes see it',
    async () => {
      const { server } = control;
      const device = await createControlDevice(server.db);
      const sent = await call(server, 'POST', SEND, {
        token,
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 1, durationMinutes: 0 },
        },
      });
      expect(sent.body.data.status).toBe('pending');
      // A second node of the cluster, sharing the database and broker.
      const otherNode = control.commands;
      const mqttDevice = await connectDevice(server, device);
      const first = await mqttDevice.next();
      expect(first).toMatchObject({ id: sent.body.data.id, name: 'openValve' });
      await otherNode.onPresence({
        device: { ...device, tenantCode: 'demo' },
        online: true,
        at: new Date(),
      });
      // QoS 1 keeps order on one connection: a duplicate would arrive before this next command.
      const later = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'closeValve', params: {} },
      });
      expect(later.status).toBe(200);
      const second = await mqttDevice.next();
      expect(second).toMatchObject({ id: later.body.data.id, name: 'closeValve' });
      expect(mqttDevice.received.map((one) => one.id)).toEqual([
        sent.body.data.id,
        later.body.data.id,
      ]);
      expect(await status(sent.body.data.id)).toBe('sent');
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'an offline device that only subscribes on reconnect, never publishing its status, gets its pending command',
    async () => {
      const { server } = control;
      const device = await createControlDevice(server.db);
      const sent = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'closeValve', params: {} },
      });
      expect(sent.body.data.status).toBe('pending');
      const issued = await server.app.deviceCredentials.reset(device.tenantId, device.deviceId);
      const port = server.app.deviceTransport.endpoints().tcpPort;
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: issued.identity,
        username: issued.identity,
        password: issued.secret,
        reconnectPeriod: 0,
      });
      try {
        const received: Array<Record<string, unknown>> = [];
        client.on('message', (_topic, payload) =>
          received.push(JSON.parse(payload.toString()) as Record<string, unknown>),
        );
        // Its subscription in place, the broker reports it online: that alone delivers.
        await client.subscribeAsync(`t/demo/d/${device.deviceNo}/cmd`, { qos: 1 });
        await eventually(
          () => status(sent.body.data.id),
          (value) => value === 'sent',
          'command sent',
        );
        // QoS 1 keeps order on one connection: a probe sent now arrives after the command.
        const probe = await call(server, 'POST', SEND, {
          token,
          body: {
            deviceId: device.deviceId,
            name: 'openValve',
            params: { channel: 1, durationMinutes: 1 },
          },
        });
        expect(probe.body.data.status).toBe('sent');
        await eventually(
          async () => received.length,
          (count) => count >= 2,
          'both commands received',
        );
        expect(received.map((one) => [one.id, one.name])).toEqual([
          [sent.body.data.id, 'closeValve'],
          [probe.body.data.id, 'openValve'],
        ]);
      } finally {
        await client.endAsync();
      }
    },
  );

  it.skipIf(!available)(
    'waiting commands arrive once each and in the order they were sent, whoever hears the reconnect',
    async () => {
      const { server } = control;
      /** An offline device with one waiting command of each kind (one of a kind at a time). */
      const waiting = async () => {
        const device = await createControlDevice(server.db);
        const ids: string[] = [];
        for (const [name, params] of [
          ['openValve', { channel: 1, durationMinutes: 0 }],
          ['closeValve', {}],
          ['ping', {}],
        ] as const) {
          const sent = await call(server, 'POST', SEND, {
            token,
            body: { deviceId: device.deviceId, name, params },
          });
          expect(sent.body.data?.status, JSON.stringify(sent.body)).toBe('pending');
          ids.push(sent.body.data.id);
        }
        return { device, ids };
      };
      const devices = await Promise.all([1, 2, 3, 4].map(waiting));
      // Each reconnect starts deliveries twice (the broker's presence once the device subscribed,
      // then its own retained status message), and here a second node hears it too: their
      // claims must not split a queue into halves that reach the device out of order.
      const connected = await Promise.all(
        devices.map(async ({ device, ids }) => {
          const mqttDevice = await connectDevice(server, device);
          await control.commands.onPresence({
            device: { ...device, tenantCode: 'demo' },
            online: true,
            at: new Date(),
          });
          for (let i = 0; i < ids.length; i++) await mqttDevice.next();
          return { device, ids, mqttDevice };
        }),
      );
      for (const { ids, mqttDevice } of connected)
        expect(mqttDevice.received.map((one) => one.id)).toEqual(ids);
      // Nothing more comes: a duplicate would arrive before a command sent now.
      const [{ device, ids, mqttDevice }] = connected as [(typeof connected)[number]];
      await mqttDevice.client.publishAsync(
        `t/demo/d/${device.deviceNo}/cmd/ack`,
        JSON.stringify({ id: ids[0], ok: true }),
        { qos: 1 },
      );
      await eventually(
        () => status(ids[0]!),
        (state) => state === 'succeeded',
        'the open acknowledged',
      );
      const last = await call(server, 'POST', SEND, {
        token,
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 2, durationMinutes: 0 },
        },
      });
      expect(last.status, JSON.stringify(last.body)).toBe(200);
      expect((await mqttDevice.next()).id).toBe(last.body.data.id);
      expect(mqttDevice.received.map((one) => one.id)).toEqual([...ids, last.body.data.id]);
      await Promise.all(connected.map((one) => one.mqttDevice.client.endAsync()));
    },
  );

  it.skipIf(!available)('an unanswered command times out; an undelivered one expires', async () => {
    const { server } = control;
    const device = await createControlDevice(server.db);
    const expiring = await call(server, 'POST', SEND, {
      token,
      body: { deviceId: device.deviceId, name: 'closeValve', params: {}, expiresInSeconds: 1 },
    });
    expect(expiring.body.data.status).toBe('pending');
    await eventually(
      () => status(expiring.body.data.id),
      (value) => value === 'expired',
      'expired',
    );

    const mqttDevice = await connectDevice(server, device);
    await seenOnline(device);
    // The expired command never reaches the device; ping is sent and never answered.
    const ping = await call(server, 'POST', SEND, {
      token,
      body: { deviceId: device.deviceId, name: 'ping', params: {} },
    });
    expect((await mqttDevice.next()).id).toBe(ping.body.data.id);
    await eventually(
      () => status(ping.body.data.id),
      (value) => value === 'timeout',
      'timeout',
    );
    expect(mqttDevice.received).toHaveLength(1);
    await mqttDevice.client.endAsync();
  });

  it.skipIf(!available)(
    'bad parameters are refused naming each one, and nothing is recorded',
    async () => {
      const { server } = control;
      const device = await createControlDevice(server.db);
      const count = async () =>
        (
          await call(server, 'GET', '/api/iot/command/queryCommand', {
            token,
            query: { deviceId: device.deviceId },
          })
        ).body.data.total;
      const bad = await call(server, 'POST', SEND, {
        token,
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 9, durationMinutes: 'ten', colour: 'red' },
        },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((one: { field: string }) => one.field).sort()).toEqual([
        'params.channel',
        'params.colour',
        'params.durationMinutes',
      ]);
      expect(
        bad.body.errors.find((one: { field: string }) => one.field === 'params.channel').message,
      ).toBe('Parameter channel must be between 1 and 8');
      const missing = await call(server, 'POST', SEND, {
        token,
        lang: 'zh',
        body: { deviceId: device.deviceId, name: 'openValve', params: { channel: 1 } },
      });
      expect(missing.body.errors).toEqual([
        { field: 'params.durationMinutes', message: '参数 durationMinutes 不能为空' },
      ]);
      const unknown = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'selfDestruct', params: {} },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].field).toBe('name');
      const readOnly = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'setProperty', params: { waterLevel: 3 } },
      });
      expect(readOnly.status).toBe(400);
      expect(readOnly.body.errors[0]).toMatchObject({ field: 'params.waterLevel' });
      const noDevice = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: '999999999', name: 'closeValve', params: {} },
      });
      expect(noDevice.status).toBe(400);
      expect(noDevice.body.errors[0].field).toBe('deviceId');
      expect(await count()).toBe(0);
    },
  );

  it.skipIf(!available)(
    'values a form might guess (9, -5, abc, 99999, an empty form) are refused, never published',
    async () => {
      const { server } = control;
      const { device, mqttDevice } = await onlineDevice();
      const send = (params: Record<string, unknown>, lang = 'en') =>
        call(server, 'POST', SEND, {
          token,
          lang,
          body: { deviceId: device.deviceId, name: 'openValve', params },
        });
      const messages = (result: Awaited<ReturnType<typeof send>>) =>
        Object.fromEntries(
          (result.body.errors as Array<{ field: string; message: string }>).map((one) => [
            one.field,
            one.message,
          ]),
        );
      const outside = await send({ channel: 9, durationMinutes: -5 });
      expect(outside.status).toBe(400);
      expect(messages(outside)).toEqual({
        'params.channel': 'Parameter channel must be between 1 and 8',
        'params.durationMinutes': 'Parameter durationMinutes must be between 0 and 1440',
      });
      const garbage = await send({ channel: 'abc', durationMinutes: 99999 }, 'tw');
      expect(garbage.status).toBe(400);
      expect(messages(garbage)).toEqual({
        'params.channel': '參數 channel 的類型應為 integer',
        'params.durationMinutes': '參數 durationMinutes 應在 0 到 1440 之間',
      });
      const fraction = await send({ channel: 1.5, durationMinutes: 1 });
      expect(Object.keys(messages(fraction))).toEqual(['params.channel']);
      const empty = await send({}, 'zh');
      expect(empty.status).toBe(400);
      expect(messages(empty)).toEqual({
        'params.channel': '参数 channel 不能为空',
        'params.durationMinutes': '参数 durationMinutes 不能为空',
      });
      const notOption = await call(server, 'POST', SEND, {
        token,
        body: { deviceId: device.deviceId, name: 'setProperty', params: { valve: 7 } },
      });
      expect(notOption.status).toBe(400);
      expect(messages(notOption)).toEqual({
        'params.valve': 'Parameter valve must be one of 0, 1',
      });
      // Refused before anything is recorded or sent: the real device hears only the valid one.
      const valid = await send({ channel: 8, durationMinutes: 0 });
      expect(valid.status).toBe(200);
      expect(await mqttDevice.next()).toMatchObject({ id: valid.body.data.id });
      expect(mqttDevice.received).toHaveLength(1);
      const records = await call(server, 'GET', '/api/iot/command/queryCommand', {
        token,
        query: { deviceId: device.deviceId },
      });
      expect(records.body.data.total).toBe(1);
      await mqttDevice.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'a command conflicting with one under way is refused until that one is cancelled',
    async () => {
      const { server } = control;
      const device = await createControlDevice(server.db);
      const body = { deviceId: device.deviceId, name: 'closeValve', params: {} };
      const first = await call(server, 'POST', SEND, { token, body });
      expect(first.body.data.status).toBe('pending');
      const again = await call(server, 'POST', SEND, { token, body });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain('closeValve');
      expect(again.body.message).toContain(first.body.data.id);
      // Another command is no conflict.
      const other = await call(server, 'POST', SEND, {
        token,
        body: {
          deviceId: device.deviceId,
          name: 'openValve',
          params: { channel: 1, durationMinutes: 5 },
        },
      });
      expect(other.status).toBe(200);
      const cancelled = await call(server, 'POST', '/api/iot/command/cancelCommand', {
        token,
        body: { id: first.body.data.id },
      });
      expect(cancelled.body.data.status).toBe('cancelled');
      const twice = await call(server, 'POST', '/api/iot/command/cancelCommand', {
        token,
        body: { id: first.body.data.id },
      });
      expect(twice.status).toBe(409);
      const now = await call(server, 'POST', SEND, { token, body });
      expect(now.status).toBe(200);
    },
  );

  it.skipIf(!available)('a role without the URL grant cannot send commands', async () => {
    const { server } = control;
    const device = await createControlDevice(server.db);
    const { token: noGrant } = await noGrantUser(server, 'command');
    const refused = await call(server, 'POST', SEND, {
      token: noGrant,
      body: { deviceId: device.deviceId, name: 'closeValve', params: {} },
    });
    expect(refused.status).toBe(403);
    const records = await call(server, 'GET', '/api/iot/command/queryCommand', {
      token,
      query: { deviceId: device.deviceId },
    });
    expect(records.body.data.total).toBe(0);
  });
});
