import {
  entityCalls,
  FERTIGATION_CALLS,
  fertigationProgramEntity,
  fertilizerRecipeEntity,
  type FertigationRun,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { connectDevice, eventually } from '../../iot/command/control-test-kit';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createAreaDevice } from '../rules-test-kit';

type MqttDevice = Awaited<ReturnType<typeof connectDevice>>;

/*
 * Fertigation programs run by the server on the scheduler core against a real fertigation
 * machine on MQTT (FERT-4CH's thing model) that answers each command as the test says.
 */
describe.each(BACKENDS)('fertigation programs on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let recipeId: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
    const recipe = await call(server, 'POST', entityCalls(fertilizerRecipeEntity).add, {
      token,
      body: {
        recipeName: `Tomato fruiting ${backend}`,
        crop: 'Tomato',
        stage: 'fruiting',
        targetEc: 2.2,
        targetPh: 6.2,
        ratioA: 1,
        ratioB: 1,
        ratioC: 0.5,
        ratioAcid: 0.1,
      },
    });
    expect(recipe.status, JSON.stringify(recipe.body)).toBe(200);
    recipeId = String(recipe.body.data.id);
  });
  afterAll(async () => server?.close());

  /** A fertigation machine online over MQTT with a program of 0 + 2 + 0 minutes on it. */
  const machineWithProgram = async () => {
    const device = await createAreaDevice(server.db, 'water_fertilizer');
    const mqttDevice = await connectDevice(server, device);
    await eventually(
      () =>
        call(server, 'GET', '/api/iot/command/queryDeviceControl', {
          token,
          query: { deviceId: device.deviceId },
        }),
      (answer) => answer.body.data?.online === true,
      'machine online',
    );
    const program = await call(server, 'POST', entityCalls(fertigationProgramEntity).add, {
      token,
      body: {
        programName: `Greenhouse ${device.deviceNo}`,
        deviceId: device.deviceId,
        groupNo: 4,
        recipeId,
        waterBeforeMinutes: 0,
        fertilizerMinutes: 2,
        waterAfterMinutes: 0,
      },
    });
    expect(program.status, JSON.stringify(program.body)).toBe(200);
    return { device, mqttDevice, programId: String(program.body.data.id) };
  };
  /** The machine's answer to the next command it receives; answers that command. */
  const answer = async (
    mqttDevice: MqttDevice,
    device: TestDevice,
    ok: boolean,
    message?: string,
  ) => {
    const command = await mqttDevice.next();
    await mqttDevice.client.publishAsync(
      `t/demo/d/${device.deviceNo}/cmd/ack`,
      JSON.stringify({ id: command.id, ok, ...(message ? { message } : {}) }),
      { qos: 1 },
    );
    return command;
  };
  const run = async (programId: string): Promise<FertigationRun> =>
    (
      await call(server, 'GET', FERTIGATION_CALLS.runs, {
        token,
        query: { programId, pageSize: '1' },
      })
    ).body.data.list[0];
  const runUntil = (programId: string, done: (run: FertigationRun) => boolean, what: string) =>
    eventually(
      () => run(programId),
      (found) => Boolean(found) && done(found),
      what,
    );
  const start = (programId: string, lang = 'en') =>
    call(server, 'POST', FERTIGATION_CALLS.start, { token, lang, body: { programId } });

  test('runs setRecipe then startProgram, holds the machine, and stops by hand', async () => {
    const { device, mqttDevice, programId } = await machineWithProgram();
    const started = await start(programId);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'running', startedBy: 'admin' });

    // Only the parameters FERT-4CH's setRecipe declares (its ratios are not among them).
    const recipe = await answer(mqttDevice, device, true);
    expect(recipe).toMatchObject({ name: 'setRecipe', params: { targetEc: 2.2, targetPh: 6.2 } });
    expect(Object.keys(recipe.params as object).sort()).toEqual(['targetEc', 'targetPh']);
    const program = await answer(mqttDevice, device, true);
    expect(program).toMatchObject({
      name: 'startProgram',
      params: { group: 4, waterBeforeMinutes: 0, fertilizerMinutes: 2, waterAfterMinutes: 0 },
    });
    const watching = await runUntil(
      programId,
      (found) => found.programStartedAt !== null,
      'program accepted',
    );
    expect(watching).toMatchObject({ status: 'running', phase: 'fertilizer' });
    expect(watching.steps.map((step) => [step.name, step.status])).toEqual([
      ['setRecipe', 'succeeded'],
      ['startProgram', 'succeeded'],
    ]);

    // One program at a time on a machine; nobody else sends it a recipe meanwhile.
    const again = await start(programId);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].field).toBe('programId');
    expect(again.body.message).toContain(
      `is already running program Greenhouse ${device.deviceNo}`,
    );
    const manual = await call(server, 'POST', '/api/iot/command/sendCommand', {
      token,
      body: { deviceId: device.deviceId, name: 'setRecipe', params: { targetEc: 4, targetPh: 7 } },
    });
    expect(manual.status).toBe(409);
    expect(manual.body.message).toBe(
      `The machine is running program Greenhouse ${device.deviceNo} (run ${watching.id}); stop it first`,
    );

    const stopped = await call(server, 'POST', FERTIGATION_CALLS.stop, {
      token,
      body: { programId },
    });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.data).toMatchObject({ status: 'stopped', reason: 'Stopped by admin' });
    expect(await answer(mqttDevice, device, true)).toMatchObject({ name: 'stopProgram' });
    const ended = await runUntil(
      programId,
      (found) => found.steps.at(-1)?.status === 'succeeded',
      'stop acknowledged',
    );
    expect(ended.steps.map((step) => step.name)).toEqual([
      'setRecipe',
      'startProgram',
      'stopProgram',
    ]);
    const notRunning = await call(server, 'POST', FERTIGATION_CALLS.stop, {
      token,
      lang: 'zh',
      body: { programId },
    });
    expect(notRunning.status).toBe(409);
    expect(notRunning.body.message).toBe('施肥程序：该设备没有正在运行的程序');
    await mqttDevice.client.endAsync();
  });

  test('stops safely when a step fails: the run fails with the reason, the machine is stopped', async () => {
    const { device, mqttDevice, programId } = await machineWithProgram();
    expect((await start(programId)).status).toBe(200);
    expect(await answer(mqttDevice, device, false, 'tank A empty')).toMatchObject({
      name: 'setRecipe',
    });
    expect(await answer(mqttDevice, device, true)).toMatchObject({ name: 'stopProgram' });
    const failed = await runUntil(programId, (found) => found.status !== 'running', 'run ended');
    expect(failed).toMatchObject({
      status: 'failed',
      reasonKey: 'monitor.fertigation.stepFailed',
      reason: 'Step 1 (setRecipe) was refused by the machine: tank A empty',
    });
    expect(failed.steps.map((step) => step.name)).toEqual(['setRecipe', 'stopProgram']);
    // startProgram never went out.
    expect(mqttDevice.received.map((message) => message.name)).toEqual([
      'setRecipe',
      'stopProgram',
    ]);
    await mqttDevice.client.endAsync();
  });

  test('stops when EC stays outside target ± the ecBand setting for more than a minute', async () => {
    const { device, mqttDevice, programId } = await machineWithProgram();
    expect((await start(programId)).status).toBe(200);
    await answer(mqttDevice, device, true);
    await answer(mqttDevice, device, true);
    await runUntil(programId, (found) => found.phase === 'fertilizer', 'fertilizer flowing');
    // EC 3.1 against 2.2 ± 0.5 (the default band), by the machine's own clock for 61 s.
    const now = Date.now();
    await mqttDevice.client.publishAsync(
      `t/demo/d/${device.deviceNo}/telemetry`,
      JSON.stringify([
        { ts: now, values: { ec: 3.1, ph: 6.2 } },
        { ts: now + 61_000, values: { ec: 3.15, ph: 6.3 } },
      ]),
      { qos: 1 },
    );
    expect(await answer(mqttDevice, device, true)).toMatchObject({ name: 'stopProgram' });
    const failed = await runUntil(programId, (found) => found.status !== 'running', 'run ended');
    expect(failed).toMatchObject({
      status: 'failed',
      reason: 'EC 3.15 mS/cm stayed outside 1.7–2.7 mS/cm for more than a minute',
    });
    await mqttDevice.client.endAsync();
  });

  test('finishes when the program time is over, EC inside its band', async () => {
    const { device, mqttDevice, programId } = await machineWithProgram();
    expect((await start(programId)).status).toBe(200);
    await answer(mqttDevice, device, true);
    await answer(mqttDevice, device, true);
    const watching = await runUntil(
      programId,
      (found) => found.programStartedAt !== null,
      'program accepted',
    );
    await mqttDevice.client.publishAsync(
      `t/demo/d/${device.deviceNo}/telemetry`,
      JSON.stringify({ values: { ec: 2.4, ph: 6.1 } }),
      { qos: 1 },
    );
    // The machine's 2 minutes pass (moved back rather than waited for).
    await server.db.system((sql) =>
      sql.query(
        `UPDATE monitor_fertigation_run
            SET program_started_at = program_started_at - interval '3 minutes'
          WHERE id = $1`,
        [watching.id],
      ),
    );
    const done = await runUntil(programId, (found) => found.status !== 'running', 'run ended');
    expect(done).toMatchObject({ status: 'succeeded', reason: null, phase: 'ended' });
    expect(mqttDevice.received.map((message) => message.name)).toEqual([
      'setRecipe',
      'startProgram',
    ]);
    await mqttDevice.client.endAsync();
  });

  test('a program with a start time starts on its days, in the name of its editor', async () => {
    const { device, mqttDevice, programId } = await machineWithProgram();
    const key = `fertigation:program:${programId}`;
    const trigger = () =>
      server.db.system(async (sql) => {
        const { rows } = await sql.query<{ state: string; due_at: Date; recurrence: unknown }>(
          'SELECT state, due_at, recurrence FROM scheduler_trigger WHERE key = $1',
          [key],
        );
        return rows[0];
      });
    // No start time: nothing scheduled.
    expect(await trigger()).toBeUndefined();
    const update = (body: Record<string, unknown>) =>
      call(server, 'PUT', entityCalls(fertigationProgramEntity).update, {
        token,
        body: { id: programId, ...body },
      });
    expect((await update({ startTime: '6:30' })).status).toBe(400);
    expect((await update({ startTime: '06:30', daysOfWeek: ['1', '4'] })).status).toBe(200);
    expect(await trigger()).toMatchObject({
      state: 'waiting',
      recurrence: { type: 'daily', at: '06:30', daysOfWeek: [1, 4] },
    });
    // Its time comes (brought forward rather than waited for).
    await server.db.system((sql) =>
      sql.query(`UPDATE scheduler_trigger SET due_at = now(), fire_at = now() WHERE key = $1`, [
        key,
      ]),
    );
    server.app.scheduler.poke();
    expect(await answer(mqttDevice, device, true)).toMatchObject({ name: 'setRecipe' });
    expect((await run(programId)).startedBy).toBe('admin');
    // Waiting for its next day again; disabling the program takes its schedule away.
    await eventually(trigger, (found) => found?.state === 'waiting', 'next occurrence');
    const disabled = await call(server, 'POST', entityCalls(fertigationProgramEntity).status, {
      token,
      body: { ids: [programId], status: 0 },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await trigger())?.state).toBe('cancelled');
    await mqttDevice.client.endAsync();
  });

  test('counts the fertilizer drawn per channel: mean suction flow × hours', async () => {
    const device = await createAreaDevice(server.db, 'water_fertilizer');
    const mqttDevice = await connectDevice(server, device);
    const hour = 3_600_000;
    const base = Math.floor(Date.now() / hour) * hour - 5 * hour;
    const reading = (at: number, values: Record<string, number>) => ({ ts: at, values });
    await mqttDevice.client.publishAsync(
      `t/demo/d/${device.deviceNo}/telemetry`,
      JSON.stringify([
        // Hour 1: channel A at 80 and 120 L/h (mean 100), B at 20 L/h.
        reading(base + 15 * 60_000, { channelAFlow: 80, channelBFlow: 20 }),
        reading(base + 45 * 60_000, { channelAFlow: 120, channelBFlow: 20 }),
        // Hour 2: A at 50 L/h; B idle.
        reading(base + hour + 30 * 60_000, { channelAFlow: 50, channelBFlow: 0 }),
      ]),
      { qos: 1 },
    );
    await mqttDevice.client.endAsync();
    const use = await call(server, 'GET', FERTIGATION_CALLS.fertilizerUse, {
      token,
      query: {
        deviceId: device.deviceId,
        start: new Date(base).toISOString(),
        end: new Date(base + 3 * hour).toISOString(),
        bucket: 'hour',
      },
    });
    expect(use.status, JSON.stringify(use.body)).toBe(200);
    expect(use.body.data.channels.map((channel: { key: string }) => channel.key)).toEqual([
      'channelAFlow',
      'channelBFlow',
      'channelCFlow',
      'channelAcidFlow',
    ]);
    expect(use.body.data.totals).toEqual({
      channelAFlow: 150,
      channelBFlow: 20,
      channelCFlow: 0,
      channelAcidFlow: 0,
    });
    expect(use.body.data.list).toEqual([
      { bucket: new Date(base).toISOString(), key: 'channelAFlow', liters: 100 },
      { bucket: new Date(base).toISOString(), key: 'channelBFlow', liters: 20 },
      { bucket: new Date(base + hour).toISOString(), key: 'channelAFlow', liters: 50 },
      { bucket: new Date(base + hour).toISOString(), key: 'channelBFlow', liters: 0 },
    ]);
    const bad = await call(server, 'GET', FERTIGATION_CALLS.fertilizerUse, {
      token,
      query: { deviceId: device.deviceId, start: 'yesterday', end: 'today', bucket: 'hour' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'start',
      'end',
    ]);
  });

  test('refuses a program on a device of another kind, naming deviceId; a start checks again', async () => {
    const pump = await createAreaDevice(server.db, 'pump_station');
    const body = {
      programName: `Wrong machine ${pump.deviceNo}`,
      deviceId: pump.deviceId,
      groupNo: 1,
      recipeId,
      waterBeforeMinutes: 5,
      fertilizerMinutes: 10,
      waterAfterMinutes: 5,
    };
    const added = await call(server, 'POST', entityCalls(fertigationProgramEntity).add, {
      token,
      lang: 'tw',
      body,
    });
    expect(added.status).toBe(400);
    expect(added.body.errors).toEqual([
      { field: 'deviceId', message: '水肥一體機：該設備不是水肥一體機' },
    ]);
    // A machine whose product changed kind after its program was made.
    const { device, mqttDevice, programId } = await machineWithProgram();
    await mqttDevice.client.endAsync();
    await server.db.system((sql) =>
      sql.query(`UPDATE iot_product SET device_kind = 'pump_station' WHERE id = $1`, [
        device.productId,
      ]),
    );
    const refused = await start(programId, 'tw');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({
      field: 'programId',
      message: '施肥程式：該程式的設備不是水肥一體機',
    });
  });
});
