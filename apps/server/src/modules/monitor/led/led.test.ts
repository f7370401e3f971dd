import {
  entityCalls,
  iotCommandEntity,
  LED_CALLS,
  ledProgramEntity,
  type CommandView,
  type LedElementInput,
  type LedSendResult,
  type ThingModel,
} from '@shuili/contract';
import { createEnvironment, createRandom, VirtualDevice } from '@shuili/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { connectDevice, eventually } from '../../iot/command/control-test-kit';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createAreaDevice } from '../rules-test-kit';

/*
 * LED screens (issue 19 item 8) against the real server and broker: a program's pages are checked
 * (elements inside the resolution, live values bound to properties their devices have), sent to
 * two of the simulator's LED screens (@shuili/sim, physics and all) and acknowledged by both,
 * which then report showing it; a reading of the bound gate reaches both screens as updateValues;
 * a program larger than a screen is refused by the server and, sent raw, by the screen itself;
 * a screen that is away gets its program when it connects.
 */
describe.each(BACKENDS)('LED programs on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let gate: TestDevice;
  const screens: TestDevice[] = [];
  const simulated: VirtualDevice[] = [];

  /** One of the simulator's LED screens (192 × 96) for a device, connected with its secret. */
  const simulate = async (device: TestDevice, seed: number) => {
    const issued = await server.app.deviceCredentials.reset(device.tenantId, device.deviceId);
    const { rows } = await server.db.system((sql) =>
      sql.query<{ thing_model: ThingModel }>(
        `SELECT p.thing_model FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE d.id = $1`,
        [device.deviceId],
      ),
    );
    const virtual = new VirtualDevice({
      brokerUrl: `mqtt://127.0.0.1:${server.app.deviceTransport.endpoints().tcpPort}`,
      identity: issued.identity,
      secret: issued.secret,
      kind: 'led_screen',
      thingModel: rows[0]!.thing_model,
      intervalMs: 60_000,
      random: createRandom(seed),
      env: createEnvironment({ random: createRandom(seed + 1), start: Date.now(), rain: [] }),
      offlineProbability: 0,
    });
    simulated.push(virtual);
    await virtual.start();
    // Its first report (the resolution among it) without waiting for its period.
    await virtual.publishTelemetry();
    return virtual;
  };

  const addProgram = async (programNo: string, width = 192, height = 96) => {
    const added = await call(server, 'POST', entityCalls(ledProgramEntity).add, {
      token,
      body: { programNo, programName: `Notice ${programNo}`, width, height },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return String(added.body.data.id);
  };

  const save = (id: string, elements: LedElementInput[], width = 192, height = 96) =>
    call(server, 'PUT', LED_CALLS.saveContent, {
      token,
      lang: 'en',
      body: { id, width, height, pages: [{ durationSeconds: 10, elements }] },
    });

  const title: LedElementInput = {
    id: 'title',
    type: 'text',
    x: 0,
    y: 0,
    width: 192,
    height: 24,
    text: 'Canal level',
  };
  const level = (property: string): LedElementInput => ({
    id: 'level',
    type: 'live',
    x: 0,
    y: 40,
    width: 192,
    height: 32,
    text: 'Level',
    binding: { deviceId: gate.deviceId, property, unit: 'm', decimals: 2 },
  });

  const commandNow = async (id: string) =>
    (
      await call<{ data: CommandView[] }>(server, 'GET', LED_CALLS.sends, {
        token,
        query: { commandIds: id },
      })
    ).body.data[0]!;

  const latestProgram = async (deviceId: string) => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ text_value: string }>(
        `SELECT text_value FROM iot_telemetry_latest WHERE device_id = $1 AND key = 'program'`,
        [deviceId],
      ),
    );
    return rows[0]?.text_value;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    gate = await createAreaDevice(server.db, 'sluice_gate');
    for (let i = 0; i < 3; i++) screens.push(await createAreaDevice(server.db, 'led_screen'));
  });
  afterAll(async () => {
    for (const virtual of simulated) await virtual.stop();
    await server?.close();
  });

  test('pages are checked: elements inside the resolution, live values on properties the device has', async () => {
    const id = await addProgram(`CHECK-${backend}`);
    const outside = await save(id, [{ ...title, x: 100 }]);
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual([expect.objectContaining({ field: 'pages.0.elements.0' })]);
    expect(outside.body.message).toMatch(/outside the 192 × 96 screen/);

    const unknown = await save(id, [title, level('rainfall')]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({ field: 'pages.0.elements.1.binding.property' }),
    ]);
    expect(unknown.body.message).toMatch(/has no numeric property rainfall/);

    // Nothing of a refused save was kept: the program still has its one empty page.
    const stored = await call(server, 'GET', LED_CALLS.content, { token, query: { id } });
    expect(stored.body.data.pages).toEqual([
      { durationSeconds: 10, background: '#000000', elements: [] },
    ]);
    const good = await save(id, [title, level('upstreamLevel')]);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data.pages[0].elements).toHaveLength(2);

    // The list's form may not shrink the resolution under the elements.
    const shrink = await call(server, 'PUT', entityCalls(ledProgramEntity).update, {
      token,
      lang: 'en',
      body: { id, width: 128 },
    });
    expect(shrink.status).toBe(400);
    expect(shrink.body.errors[0].field).toBe('width');
  });

  test('a program sent to two simulated screens is acknowledged by both, which report it; readings reach them as live values', async () => {
    const programNo = `LEVEL-${backend}`;
    const id = await addProgram(programNo);
    expect((await save(id, [title, level('upstreamLevel')])).status).toBe(200);
    const [first, second] = screens as [TestDevice, TestDevice];
    await simulate(first, 11);
    await simulate(second, 12);
    await eventually(
      async () => [await latestProgram(first.deviceId), await latestProgram(second.deviceId)],
      (values) => values.every((value) => value !== undefined),
      'both screens reported',
    );

    // A program larger than what the screens reported is refused before anything is sent.
    const large = await addProgram(`LARGE-${backend}`, 256, 128);
    expect((await save(large, [{ ...title, width: 256 }], 256, 128)).status).toBe(200);
    const refused = await call(server, 'POST', LED_CALLS.send, {
      token,
      lang: 'en',
      body: { programId: large, deviceIds: [first.deviceId] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('deviceIds');
    expect(refused.body.message).toMatch(/larger than .*\(192 × 96\)/);

    const sent = await call<{ data: LedSendResult[] }>(server, 'POST', LED_CALLS.send, {
      token,
      body: { programId: id, deviceIds: [first.deviceId, second.deviceId] },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.map((result) => result.deviceId)).toEqual([
      first.deviceId,
      second.deviceId,
    ]);
    for (const result of sent.body.data) {
      const done = await eventually(
        () => commandNow(result.command.id),
        (command) => !['pending', 'sent'].includes(command.status),
        `${result.deviceNo} acknowledged`,
      );
      expect(done.status).toBe('succeeded');
    }
    // The acknowledgement carries the screen's values: both now report the program.
    expect(await latestProgram(first.deviceId)).toBe(programNo);
    expect(await latestProgram(second.deviceId)).toBe(programNo);
    const listed = await call(server, 'GET', entityCalls(ledProgramEntity).query, {
      token,
      query: { programNo },
    });
    const { rows: names } = await server.db.system((sql) =>
      sql.query<{ device_name: string }>(
        'SELECT device_name FROM iot_device WHERE id = ANY ($1::bigint[]) ORDER BY device_name',
        [[first.deviceId, second.deviceId]],
      ),
    );
    expect(listed.body.data.list[0].screens.split(', ').sort()).toEqual(
      names.map((row) => row.device_name),
    );

    // The gate reports a level: both screens are sent it and take it.
    const gateMqtt = await connectDevice(server, gate);
    await gateMqtt.client.publishAsync(
      `t/demo/d/${gate.deviceNo}/telemetry`,
      JSON.stringify({ values: { upstreamLevel: 2.35 } }),
      { qos: 1 },
    );
    for (const screen of [first, second]) {
      const update = await eventually(
        async () => {
          const records = await call(server, 'GET', entityCalls(iotCommandEntity).query, {
            token,
            query: { deviceId: screen.deviceId, name: 'updateValues' },
          });
          return (records.body.data.list ?? []) as Array<{ status: string; params: unknown }>;
        },
        (list) => list.some((row) => row.status === 'succeeded'),
        `${screen.deviceNo} took the live value`,
      );
      expect(JSON.stringify(update)).toContain(`${gate.deviceId}.upstreamLevel`);
      expect(JSON.stringify(update)).toContain('2.35');
    }
    await gateMqtt.client.endAsync();

    // The screen defends itself too: a program larger than it, sent past the server's check as
    // a raw command, is refused with its reason and it keeps showing what it showed.
    const raw = await call<{ data: CommandView }>(server, 'POST', '/api/iot/command/sendCommand', {
      token,
      body: {
        deviceId: first.deviceId,
        name: 'setProgram',
        params: {
          programId: 'TOO-BIG',
          content: JSON.stringify({
            programNo: 'TOO-BIG',
            width: 256,
            height: 128,
            pages: [{ durationSeconds: 5, elements: [] }],
            values: {},
          }),
        },
      },
    });
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    const refusedByScreen = await eventually(
      () => commandNow(raw.body.data.id),
      (command) => !['pending', 'sent'].includes(command.status),
      'the screen answered',
    );
    expect(refusedByScreen.status).toBe('failed');
    expect(refusedByScreen.result).toMatch(/larger than the screen \(192 × 96\)/);
    expect(await latestProgram(first.deviceId)).toBe(programNo);
  });

  test('a screen that is away gets its program when it connects', async () => {
    const programNo = `LATER-${backend}`;
    const id = await addProgram(programNo);
    expect((await save(id, [title])).status).toBe(200);
    const away = screens[2]!;
    const sent = await call<{ data: LedSendResult[] }>(server, 'POST', LED_CALLS.send, {
      token,
      body: { programId: id, deviceIds: [away.deviceId] },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data[0]!.online).toBe(false);
    expect(sent.body.data[0]!.command.status).toBe('pending');
    // It waits (until it expires, an hour after): still pending a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await commandNow(sent.body.data[0]!.command.id)).status).toBe('pending');
    await simulate(away, 13);
    const done = await eventually(
      () => commandNow(sent.body.data[0]!.command.id),
      (command) => !['pending', 'sent'].includes(command.status),
      'delivered on connect',
    );
    expect(done.status).toBe('succeeded');
    await eventually(
      () => latestProgram(away.deviceId),
      (value) => value === programNo,
      'the screen reports it',
    );
  });
});
