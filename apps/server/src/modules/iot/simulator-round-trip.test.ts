import {
  entityCalls,
  iotDeviceEntity,
  TELEMETRY_CALLS,
  type CommandView,
  type DeviceControl,
  type DeviceKind,
  type IngestStat,
  type TelemetryLatestItem,
  type ThingModel,
} from '@shuili/contract';
import { createEnvironment, createRandom, VirtualDevice } from '@shuili/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/**
 * The IoT issue's "command round trip with the simulator including the offline-then-reconnect
 * case": the real simulator (@shuili/sim's VirtualDevice, physics and all) plays the demo tenant's
 * seeded valve controllers against the real server's embedded broker, with the devices' own
 * credentials, and the demo admin watches and commands them over HTTP like the console does.
 */

const SEND = '/api/iot/command/sendCommand';
/** Generous: the machine is shared, and the server gets there on its own time. */
const DEADLINE_MS = 30_000;

/** The admin's view of the server: where it is and the bearer token. */
interface Console {
  server: TestServer;
  token: string;
}

/** A seeded device with a fresh secret, its product's kind and thing model. */
interface SeededDevice {
  deviceId: string;
  deviceNo: string;
  identity: string;
  secret: string;
  kind: DeviceKind;
  thingModel: ThingModel;
}

/** Polls until the server reaches a state on its own (a device's answer, the sweeper). */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The tenant's seeded devices of one kind, with secrets issued as `npm start`'s simulation gets
 * them (demo-simulation.ts), ordered by device number.
 */
async function seededDevicesOfKind(server: TestServer, kind: DeviceKind): Promise<SeededDevice[]> {
  const issued = await server.app.deviceCredentials.issueDemoCredentials('demo');
  const products = await server.db.system((sql) =>
    sql.query<{ id: string; device_kind: string; thing_model: ThingModel }>(
      `SELECT d.id::text, p.device_kind, p.thing_model
         FROM iot_device d JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
        WHERE d.id = ANY($1::bigint[])`,
      [issued.map((device) => device.deviceId)],
    ),
  );
  const byId = new Map(products.rows.map((row) => [row.id, row]));
  return issued
    .filter((device) => byId.get(device.deviceId)?.device_kind === kind)
    .map((device) => ({
      deviceId: device.deviceId,
      deviceNo: device.deviceNo,
      identity: device.identity,
      secret: device.secret,
      kind,
      thingModel: byId.get(device.deviceId)!.thing_model,
    }))
    .sort((a, b) => a.deviceNo.localeCompare(b.deviceNo));
}

/** The embedded broker as a field device reaches it. */
function brokerUrlOf(server: TestServer): string {
  const { tcpPort, wsPath } = server.app.deviceTransport.endpoints();
  return tcpPort ? `mqtt://127.0.0.1:${tcpPort}` : `${server.url.replace('http', 'ws')}${wsPath}`;
}

/** A device clock that can run ahead of the wall clock (to let the physics move on). */
interface DeviceClock {
  aheadMs: number;
}

/** The simulator's virtual device for a seeded one: its physics, credentials and thing model. */
function simulatedDevice(
  brokerUrl: string,
  device: SeededDevice,
  clock: DeviceClock,
  seed: number,
): VirtualDevice {
  const now = () => Date.now() + clock.aheadMs;
  return new VirtualDevice({
    brokerUrl,
    identity: device.identity,
    secret: device.secret,
    kind: device.kind,
    thingModel: device.thingModel,
    intervalMs: 1_000,
    random: createRandom(seed),
    env: createEnvironment({ random: createRandom(seed + 1), start: now(), rain: [] }),
    now,
    // Outages happen when the test says so, not at random.
    offlineProbability: 0,
  });
}

/** The device as the device list shows it (queryIotDevice). */
async function deviceRecord(api: Console, deviceNo: string) {
  const result = await call(api.server, 'GET', entityCalls(iotDeviceEntity).query, {
    token: api.token,
    query: { deviceNo },
  });
  expect(result.status).toBe(200);
  const rows = result.body.data.list as Array<{
    deviceNo: string;
    online: boolean;
    lastSeen: string | null;
  }>;
  return rows.find((row) => row.deviceNo === deviceNo)!;
}

function untilOnline(api: Console, device: SeededDevice, online: boolean) {
  return until(
    `${device.deviceNo} ${online ? 'online' : 'offline'}`,
    () => deviceRecord(api, device.deviceNo),
    (record) => record.online === online,
  );
}

/** The latest value of every property of the device's thing model (queryLatest). */
async function latestValues(api: Console, deviceId: string) {
  const result = await call<{ data: TelemetryLatestItem[] }>(
    api.server,
    'GET',
    TELEMETRY_CALLS.latest,
    { token: api.token, query: { deviceId } },
  );
  expect(result.status).toBe(200);
  return Object.fromEntries(result.body.data.map((item) => [item.key, item]));
}

function untilLatest(
  api: Console,
  device: SeededDevice,
  what: string,
  done: (values: Record<string, number | null | undefined>) => boolean,
) {
  return until(
    `${device.deviceNo}: ${what}`,
    async () =>
      Object.fromEntries(
        Object.entries(await latestValues(api, device.deviceId)).map(([key, item]) => [
          key,
          item.value,
        ]),
      ),
    done,
  );
}

async function sendCommand(
  api: Console,
  deviceId: string,
  name: string,
  params: Record<string, unknown>,
  expiresInSeconds?: number,
): Promise<CommandView> {
  const result = await call(api.server, 'POST', SEND, {
    token: api.token,
    body: { deviceId, name, params, ...(expiresInSeconds ? { expiresInSeconds } : {}) },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as CommandView;
}

async function commandNow(api: Console, id: string): Promise<CommandView> {
  const result = await call(api.server, 'GET', '/api/iot/command/queryCommandDetail', {
    token: api.token,
    query: { id },
  });
  expect(result.status).toBe(200);
  return result.body.data as CommandView;
}

/** Waits for the command to leave pending / sent: succeeded, failed, timeout or expired. */
function untilSettled(api: Console, id: string) {
  return until(
    `command ${id} settled`,
    () => commandNow(api, id),
    (command) => command.status !== 'pending' && command.status !== 'sent',
  );
}

describe.each(BACKENDS)('simulator round trip on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let api: Console;
  let valves: SeededDevice[] = [];
  let brokerUrl = '';
  const running: VirtualDevice[] = [];

  beforeAll(async () => {
    if (!available) return;
    const server = await startTestServer({ backend });
    api = { server, token: (await signIn(server, 'demo', 'admin', 'admin123')).access_token };
    valves = await seededDevicesOfKind(server, 'irrigation_valve');
    brokerUrl = brokerUrlOf(server);
  });

  afterAll(async () => {
    await Promise.all(running.map((device) => device.stop()));
    await api.server?.close();
  });

  async function startDevice(device: SeededDevice, clock: DeviceClock, seed: number) {
    const simulated = simulatedDevice(brokerUrl, device, clock, seed);
    running.push(simulated);
    await simulated.start();
    return simulated;
  }

  /** One valve controller's story: online, opened, offline, closed while away, back. */
  describe('a valve controller', () => {
    let valve: SeededDevice;
    let simulated: VirtualDevice;
    const clock: DeviceClock = { aheadMs: 0 };
    /** The channel the tests water through, and its state property. */
    const channel = 1;
    const valveState = `valve${channel}State`;

    test('comes online with its own credentials and its telemetry is stored', async () => {
      expect(valves.length).toBeGreaterThanOrEqual(2);
      valve = valves[0]!;
      simulated = await startDevice(valve, clock, 11);

      const record = await untilOnline(api, valve, true);
      expect(record.lastSeen).not.toBeNull();
      const keys = valve.thingModel.properties.map((property) => property.key);
      const latest = await until(
        `${valve.deviceNo}: a reading of every property`,
        () => latestValues(api, valve.deviceId),
        (items) => keys.every((key) => items[key]?.ts),
      );
      expect(Object.keys(latest).sort()).toEqual([...keys].sort());
      expect(latest[valveState]!.value).toBe(0);
      expect(latest.flow!.value).toBe(0);
      // Everything it sent fits its thing model.
      const stat = await call<{ data: IngestStat }>(api.server, 'GET', TELEMETRY_CALLS.ingestStat, {
        token: api.token,
        query: { deviceId: valve.deviceId },
      });
      expect(stat.body.data).toMatchObject({
        unknownKeys: 0,
        wrongType: 0,
        outOfRange: 0,
        badPayload: 0,
        badTime: 0,
      });
      expect(stat.body.data.accepted).toBeGreaterThan(0);
    });

    test('openValve reaches the device, its acknowledgement succeeds the command and flow rises', async () => {
      // The parameters its thing model asks for (the console draws its form from them).
      const control = await call<{ data: DeviceControl }>(
        api.server,
        'GET',
        '/api/iot/command/queryDeviceControl',
        { token: api.token, query: { deviceId: valve.deviceId } },
      );
      expect(control.body.data.online).toBe(true);
      const openValve = control.body.data.commands.find((command) => command.key === 'openValve');
      expect(openValve?.params.map((param) => param.key)).toEqual(['channel', 'durationMinutes']);
      const [channelParam, durationParam] = openValve!.params;
      expect(channel).toBeGreaterThanOrEqual(channelParam!.min!);
      expect(channel).toBeLessThanOrEqual(channelParam!.max!);
      const durationMinutes = 30;
      expect(durationMinutes).toBeLessThanOrEqual(durationParam!.max!);

      const sent = await sendCommand(api, valve.deviceId, 'openValve', {
        channel,
        durationMinutes,
      });
      expect(sent.status).toBe('sent');
      const done = await untilSettled(api, sent.id);
      expect(done).toMatchObject({ status: 'succeeded', result: null });
      expect(done.ackedAt).not.toBeNull();
      expect(done.latencyMs).toBeGreaterThanOrEqual(0);
      expect(simulated.stats.commandsAnswered).toBe(1);

      // The physics: the valve opens and water starts to flow within seconds.
      await untilLatest(
        api,
        valve,
        'valve open and flow above 0',
        (values) => values[valveState] === 1 && (values.flow ?? 0) > 0,
      );
    });

    test('offline, closeValve waits; back online, it is delivered once, succeeds and the flow stops', async () => {
      const answeredBefore = simulated.stats.commandsAnswered;
      simulated.dropOffline(); // no goodbye: the broker sends its last will
      await untilOnline(api, valve, false);

      const close = await sendCommand(api, valve.deviceId, 'closeValve', { channel });
      expect(close).toMatchObject({ status: 'pending', sentAt: null });
      // Still open as far as anyone knows, and the command still waits.
      expect((await latestValues(api, valve.deviceId))[valveState]!.value).toBe(1);
      expect(await commandNow(api, close.id)).toMatchObject({ status: 'pending', sentAt: null });
      expect(simulated.stats.commandsAnswered).toBe(answeredBefore);

      await simulated.comeBack();
      await untilOnline(api, valve, true);
      const done = await untilSettled(api, close.id);
      expect(done.status).toBe('succeeded');
      expect(done.sentAt).not.toBeNull();
      await untilLatest(api, valve, 'valve closed', (values) => values[valveState] === 0);

      // The line drains with a time constant of 15 s: rather than wait a minute and more, the
      // device's clock runs two minutes ahead (readings up to a day ahead are accepted).
      clock.aheadMs += 120_000;
      await untilLatest(
        api,
        valve,
        'flow back to 0',
        (values) => values[valveState] === 0 && values.flow === 0,
      );

      // QoS 1 keeps order on one connection: a second delivery of closeValve would have been
      // answered before this probe is.
      const probe = await sendCommand(api, valve.deviceId, 'closeValve', { channel });
      expect((await untilSettled(api, probe.id)).status).toBe('succeeded');
      expect(simulated.stats.commandsAnswered).toBe(answeredBefore + 2);
      expect(simulated.stats.outages).toBe(1);
    });
  });

  test('a command for a valve that stays away expires and is never delivered, not even when it turns up later', async () => {
    const valve = valves[1]!;
    // Its clock lags a minute: were the expired command to reach it, it would still carry it
    // out and answer, so its count of answers shows whether it came.
    const simulated = await startDevice(valve, { aheadMs: -60_000 }, 23);
    await untilOnline(api, valve, true);
    simulated.dropOffline();
    await untilOnline(api, valve, false);

    const open = await sendCommand(
      api,
      valve.deviceId,
      'openValve',
      { channel: 1, durationMinutes: 30 },
      2,
    );
    expect(open.status).toBe('pending');
    const expired = await untilSettled(api, open.id);
    expect(expired).toMatchObject({ status: 'expired', sentAt: null, ackedAt: null });
    expect(simulated.stats.commandsAnswered).toBe(0);

    // Back after all: the expired command stays undelivered; a probe sent now gets through, and
    // QoS 1 order means the expired one would have been answered before it.
    await simulated.comeBack();
    await untilOnline(api, valve, true);
    const probe = await sendCommand(api, valve.deviceId, 'closeValve', { channel: 1 });
    expect((await untilSettled(api, probe.id)).status).toBe('succeeded');
    expect(simulated.stats.commandsAnswered).toBe(1);
    expect(await commandNow(api, open.id)).toMatchObject({ status: 'expired', sentAt: null });
    const latest = await latestValues(api, valve.deviceId);
    expect(latest.valve1State!.value).toBe(0);
  });
});
