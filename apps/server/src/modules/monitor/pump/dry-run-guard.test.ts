import { AREA_SETTING_CALLS } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { adminToken } from '../../../mqtt/mqtt-test-clients';
import { connectDevice, eventually } from '../../iot/command/control-test-kit';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createAreaDevice } from '../rules-test-kit';

const SEND = '/api/iot/command/sendCommand';
const MINUTE = 60_000;

/*
 * The pump dry-run interlock: a real pump station on MQTT, its forebay level published as
 * telemetry, its dry-run level an area setting. A refused start is neither recorded nor sent.
 */
describe.each(BACKENDS)('pump dry-run interlock on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = await adminToken(server);
  });
  afterAll(async () => server?.close());

  /** A pump station online over MQTT, seen online by the server. */
  const onlineStation = async () => {
    const device = await createAreaDevice(server.db, 'pump_station');
    const mqttDevice = await connectDevice(server, device);
    await eventually(
      () =>
        call(server, 'GET', '/api/iot/command/queryDeviceControl', {
          token,
          query: { deviceId: device.deviceId },
        }),
      (answer) => answer.body.data?.online === true,
      'station online',
    );
    return { device, mqttDevice };
  };
  /** Publishes a forebay level (QoS 1: stored when the broker acknowledges it). */
  const forebay = (
    mqttDevice: Awaited<ReturnType<typeof connectDevice>>,
    device: TestDevice,
    level: number,
    ts = Date.now(),
  ) =>
    mqttDevice.client.publishAsync(
      `t/demo/d/${device.deviceNo}/telemetry`,
      JSON.stringify({ ts, values: { forebayLevel: level } }),
      { qos: 1 },
    );
  const start = (device: TestDevice, lang = 'en') =>
    call(server, 'POST', SEND, {
      token,
      lang,
      body: { deviceId: device.deviceId, name: 'startPump', params: { pumpNo: 1 } },
    });
  const records = async (device: TestDevice) =>
    (
      await call(server, 'GET', '/api/iot/command/queryCommand', {
        token,
        query: { deviceId: device.deviceId },
      })
    ).body.data.list.map((row: { name: string }) => row.name);

  test('refuses a start below the dry-run level (the pump hears nothing) and allows it above', async () => {
    const { device, mqttDevice } = await onlineStation();
    const set = await call(server, 'POST', AREA_SETTING_CALLS.update, {
      token,
      body: { area: 'pumpStation', deviceId: device.deviceId, values: { dryRunLevel: 1.2 } },
    });
    expect(set.status).toBe(200);
    await forebay(mqttDevice, device, 0.65);

    const refused = await start(device);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Pump not started: the forebay level 0.65 m is below the dry-run level 1.2 m',
    );
    expect((await start(device, 'zh')).body.message).toBe(
      '拒绝启泵：前池水位 0.65 m 低于干运行保护水位 1.2 m',
    );
    expect((await start(device, 'tw')).body.message).toBe(
      '拒絕啟泵：前池水位 0.65 m 低於乾運轉保護水位 1.2 m',
    );
    expect(await records(device)).toEqual([]);
    // Other commands pass: the first message the pump receives is this one, not a start.
    const frequency = await call(server, 'POST', SEND, {
      token,
      body: {
        deviceId: device.deviceId,
        name: 'setFrequency',
        params: { pumpNo: 1, frequency: 42 },
      },
    });
    expect(frequency.status).toBe(200);
    expect(await mqttDevice.next()).toMatchObject({ name: 'setFrequency' });

    // The forebay fills: the same start goes through and reaches the pump.
    await forebay(mqttDevice, device, 1.2);
    const allowed = await start(device);
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(await mqttDevice.next()).toMatchObject({ name: 'startPump', params: { pumpNo: 1 } });
    expect(mqttDevice.received.map((message) => message.name)).toEqual([
      'setFrequency',
      'startPump',
    ]);
    await mqttDevice.client.endAsync();
  });

  test('refuses a start on a level never reported or older than three report intervals', async () => {
    const { device, mqttDevice } = await onlineStation();
    const unknown = await start(device);
    expect(unknown.status).toBe(409);
    expect(unknown.body.message).toBe(
      'Pump not started: the station has reported no forebay level; the dry-run level is 1 m',
    );
    // PUMP-VFD-2 reports every 60 s: a level of 4 minutes ago is stale, however high.
    await forebay(mqttDevice, device, 3.5, Date.now() - 4 * MINUTE);
    const stale = await start(device);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Pump not started: the last forebay level (3.5 m) is 4 minutes old, more than 3 minutes; the dry-run level is 1 m',
    );
    expect(await records(device)).toEqual([]);
    await forebay(mqttDevice, device, 3.5);
    expect((await start(device)).status).toBe(200);
    expect(await mqttDevice.next()).toMatchObject({ name: 'startPump' });
    await mqttDevice.client.endAsync();
  });
});
