import net from 'node:net';
import { PRODUCTS, deviceTopic, type CommandAck, type ThingModel } from '@shuili/contract';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker } from './test-broker';
import type { DeviceKind } from './models/create-physics-model';
import { createEnvironment } from './models/environment';
import { createRandom } from './random';
import { VirtualDevice } from './virtual-device';

/**
 * A virtual device against a real broker: a bare aedes on an ephemeral port (the embedded
 * broker's engine), or Mosquitto when TEST_MQTT_URL is set. The observer plays the server.
 */
let brokerUrl = '';
let close: () => Promise<void> = async () => undefined;
const tenant = `simt${Math.floor(Math.random() * 1e9)}`;

beforeAll(async () => {
  ({ url: brokerUrl, close } = await startTestBroker());
});

afterAll(() => close());

function thingModelOf(kind: DeviceKind): ThingModel {
  return PRODUCTS.find((product) => product.kind === kind)!.thingModel;
}

/** A server stand-in: collects what arrives on a device's topics. */
async function observe(deviceNo: string) {
  const client = await mqtt.connectAsync(brokerUrl, { clientId: `obs-${deviceNo}`, clean: true });
  const inbox: { channel: string; payload: unknown; retain: boolean }[] = [];
  const waiters: (() => void)[] = [];
  client.on('message', (topic, payload, packet) => {
    const text = payload.toString('utf8');
    inbox.push({
      channel: topic.split('/').slice(4).join('/'),
      payload: text ? JSON.parse(text) : null,
      retain: packet.retain,
    });
    waiters.splice(0).forEach((wake) => wake());
  });
  await client.subscribeAsync(`t/${tenant}/d/${deviceNo}/#`, { qos: 1 });
  const next = async (match: (item: (typeof inbox)[number]) => boolean) => {
    for (;;) {
      const found = inbox.findIndex(match);
      if (found >= 0) return inbox.splice(found, 1)[0]!;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const ack = async (id: string) =>
    (await next((item) => item.channel === 'cmd/ack' && (item.payload as CommandAck).id === id))
      .payload as CommandAck;
  const command = (
    name: string,
    params: Record<string, unknown>,
    expiresAt = Date.now() + 60_000,
  ) => {
    const id = `${name}-${Math.random().toString(36).slice(2)}`;
    const topic = deviceTopic(tenant, deviceNo, 'cmd');
    void client.publishAsync(topic, JSON.stringify({ id, name, params, expiresAt }), { qos: 1 });
    return id;
  };
  const done = async () => {
    // Leave no retained status behind on a shared broker.
    await client.publishAsync(deviceTopic(tenant, deviceNo, 'status'), '', {
      retain: true,
      qos: 1,
    });
    await client.endAsync();
  };
  return { client: client as MqttClient, inbox, next, ack, command, done };
}

function device(deviceNo: string, kind: DeviceKind, clock: { now: number }) {
  return new VirtualDevice({
    brokerUrl,
    identity: `${tenant}:${deviceNo}`,
    kind,
    thingModel: thingModelOf(kind),
    intervalMs: 3_600_000, // the test publishes by hand
    random: createRandom(7),
    env: createEnvironment({ random: createRandom(8), start: clock.now, rain: [] }),
    now: () => clock.now,
  });
}

describe('VirtualDevice over MQTT', () => {
  it('announces itself online, reports telemetry in its thing model and answers valve commands', async () => {
    const clock = { now: Date.now() };
    const observer = await observe('valve-1');
    const valve = device('valve-1', 'irrigation_valve', clock);
    await valve.start();
    expect((await observer.next((m) => m.channel === 'status')).payload).toEqual({ online: true });

    await valve.publishTelemetry();
    const first = (await observer.next((m) => m.channel === 'telemetry')).payload as {
      ts: number;
      values: Record<string, unknown>;
    };
    expect(Object.keys(first.values).sort()).toEqual(
      thingModelOf('irrigation_valve')
        .properties.map((p) => p.key)
        .sort(),
    );
    expect(first.values['flow']).toBe(0);

    const open = observer.command('openValve', { channel: 2, durationMinutes: 30 });
    const ack = await observer.ack(open);
    expect(ack).toMatchObject({ ok: true, values: { valve2State: 1 } });
    clock.now += 60_000;
    await valve.publishTelemetry();
    const running = (await observer.next((m) => m.channel === 'telemetry')).payload as {
      values: Record<string, number>;
    };
    expect(running.values['valve2State']).toBe(1);
    expect(running.values['flow']).toBeGreaterThan(0);

    const closeId = observer.command('closeValve', { channel: 2 });
    expect(await observer.ack(closeId)).toMatchObject({ ok: true, values: { valve2State: 0 } });
    expect(valve.stats.commandsAnswered).toBe(2);
    expect(valve.stats.acked).toBe(2);

    await valve.stop();
    expect((await observer.next((m) => m.channel === 'status')).payload).toEqual({ online: false });
    await observer.done();
  });

  it('refuses unknown commands and unwritable properties with a reason and ignores expired ones', async () => {
    const clock = { now: Date.now() };
    const observer = await observe('led-1');
    const led = device('led-1', 'led_screen', clock);
    await led.start();

    const expired = observer.command('setProperty', { brightness: 10 }, Date.now() - 1000);
    const unknown = observer.command('selfDestruct', {});
    const unknownAck = await observer.ack(unknown);
    expect(unknownAck.ok).toBe(false);
    expect(unknownAck.message).toMatch(/selfDestruct/);

    const readOnly = await observer.ack(observer.command('setProperty', { signalStrength: -50 }));
    expect(readOnly).toMatchObject({ ok: false });
    expect(readOnly.message).toMatch(/signalStrength/);
    const outOfRange = await observer.ack(observer.command('setProperty', { brightness: 300 }));
    expect(outOfRange).toMatchObject({ ok: false });

    const set = await observer.ack(observer.command('setProperty', { brightness: 40 }));
    expect(set).toMatchObject({ ok: true, values: { brightness: 40 } });
    // The expired command was sent first; its ack never came.
    const acks = observer.inbox.filter((m) => m.channel === 'cmd/ack');
    expect(acks.some((m) => (m.payload as CommandAck).id === expired)).toBe(false);
    expect(led.stats.commandsAnswered).toBe(4);

    await led.stop();
    await observer.done();
  });

  it('drops offline (last will), comes back and carries out the command that waited', async () => {
    const clock = { now: Date.now() };
    const observer = await observe('pump-1');
    const pump = device('pump-1', 'pump_station', clock);
    await pump.start();
    await observer.next((m) => m.channel === 'status' && (m.payload as { online: boolean }).online);

    pump.dropOffline(300);
    const will = await observer.next((m) => m.channel === 'status');
    expect(will.payload).toEqual({ online: false });
    // Readings taken while offline are sent as one array on reconnect.
    clock.now += 60_000;
    await pump.publishTelemetry();

    // Like the server: the pending command goes out once the device says it is online again.
    await observer.next((m) => m.channel === 'status' && (m.payload as { online: boolean }).online);
    const start = observer.command('startPump', { pumpNo: 1 });
    expect(await observer.ack(start)).toMatchObject({ ok: true, values: { pump1Running: true } });
    // The reading taken while offline arrives after the reconnect, with the time it was taken.
    const backlog = await observer.next((m) => m.channel === 'telemetry');
    expect(backlog.payload).toMatchObject({ ts: clock.now, values: { pump1Running: false } });
    expect(pump.stats.outages).toBe(1);

    await pump.stop();
    await observer.done();
  });

  it('delivers the reading of the tick its outage starts at before it drops', async () => {
    const observer = await observe('gate-1');
    const gate = new VirtualDevice({
      brokerUrl,
      identity: `${tenant}:gate-1`,
      kind: 'sluice_gate',
      thingModel: thingModelOf('sluice_gate'),
      intervalMs: 100,
      random: createRandom(9),
      env: createEnvironment({ random: createRandom(10), start: Date.now(), rain: [] }),
      // Certain to drop at its first tick, and away for longer than the test.
      offlineProbability: 1,
      offlineMs: [60_000, 60_000],
    });
    await gate.start();
    await observer.next((m) => m.channel === 'status' && (m.payload as { online: boolean }).online);

    await observer.next((m) => m.channel === 'telemetry');
    expect((await observer.next((m) => m.channel === 'status')).payload).toEqual({
      online: false,
    });
    expect(gate.stats).toMatchObject({ sent: 1, acked: 1, outages: 1 });

    await gate.stop();
    await observer.done();
  });

  it('stays away after dropOffline() without a time until comeBack() brings it back', async () => {
    const clock = { now: Date.now() };
    const observer = await observe('valve-2');
    const valve = device('valve-2', 'irrigation_valve', clock);
    await valve.start();
    await observer.next((m) => m.channel === 'status' && (m.payload as { online: boolean }).online);

    valve.dropOffline();
    expect((await observer.next((m) => m.channel === 'status')).payload).toEqual({
      online: false,
    });
    expect(valve.isOnline()).toBe(false);
    clock.now += 60_000;
    await valve.publishTelemetry(); // kept: nobody to send it to

    await valve.comeBack();
    expect(valve.isOnline()).toBe(true);
    expect((await observer.next((m) => m.channel === 'status')).payload).toEqual({ online: true });
    const kept = await observer.next((m) => m.channel === 'telemetry');
    expect(kept.payload).toMatchObject({ ts: clock.now, values: { flow: 0 } });
    const open = observer.command('openValve', { channel: 1, durationMinutes: 5 });
    expect(await observer.ack(open)).toMatchObject({ ok: true, values: { valve1State: 1 } });
    // Already back: a second call changes nothing.
    await valve.comeBack();
    expect(valve.stats).toMatchObject({ outages: 1, connected: 1, commandsAnswered: 1 });

    await valve.stop();
    await observer.done();
  });

  it('is refused by a broker that checks credentials when the secret is wrong', async () => {
    if (process.env.TEST_MQTT_URL) return; // Mosquitto in tests lets anonymous clients in.
    const broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) =>
        done(null, username === `${tenant}:gate-1` && password?.toString() === 'right'),
    });
    const server = net.createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const make = (secret: string) =>
      new VirtualDevice({
        brokerUrl: url,
        identity: `${tenant}:gate-1`,
        secret,
        kind: 'sluice_gate',
        intervalMs: 3_600_000,
        random: createRandom(1),
        env: createEnvironment({ random: createRandom(2), start: Date.now(), rain: [] }),
      });
    await expect(make('wrong').start()).rejects.toThrow();
    const right = make('right');
    await right.start();
    expect(right.isOnline()).toBe(true);
    await right.stop();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

describe('a device the broker refuses for a while', () => {
  it('keeps trying after "server unavailable" and is back online once it is let in', async () => {
    // The server answers CONNACK 3 while its database is away; a device must come back after.
    let away = false;
    const refusals: number[] = [];
    const broker = await Aedes.createBroker({
      authenticate: (_client, _username, _password, done) => {
        if (!away) return done(null, true);
        refusals.push(Date.now());
        done(Object.assign(new Error('server unavailable'), { returnCode: 3 }) as never, false);
      },
    });
    const connected: Array<{ close: () => void }> = [];
    broker.on('client', (client) => connected.push(client));
    const server = net.createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const errors: Error[] = [];
    const gate = new VirtualDevice({
      brokerUrl: url,
      identity: `${tenant}:gate-2`,
      kind: 'sluice_gate',
      intervalMs: 3_600_000,
      random: createRandom(3),
      env: createEnvironment({ random: createRandom(4), start: Date.now(), rain: [] }),
      onError: (error) => errors.push(error),
    });
    await gate.start();
    expect(gate.isOnline()).toBe(true);

    away = true;
    for (const client of connected) client.close();
    await expect.poll(() => gate.isOnline()).toBe(false);
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    away = false;
    await expect.poll(() => gate.isOnline(), { timeout: 10_000 }).toBe(true);
    expect(errors.some((error) => /unavailable/i.test(error.message))).toBe(true);

    await gate.stop();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }, 30_000);
});

describe('a device restarted with its meters’ last values', () => {
  it('counts on from them instead of starting its own count again', () => {
    const clock = { now: Date.UTC(2026, 6, 6, 6) };
    const make = (counterStart?: Record<string, number>) =>
      new VirtualDevice({
        brokerUrl,
        identity: `${tenant}:pump-meter`,
        kind: 'pump_station',
        thingModel: thingModelOf('pump_station'),
        intervalMs: 3_600_000,
        random: createRandom(21),
        env: createEnvironment({ random: createRandom(22), start: clock.now, rain: [] }),
        now: () => clock.now,
        autoOperate: true,
        ...(counterStart ? { counterStart } : {}),
      });
    const own = make().reading();
    const continued = make({ cumulativeVolume: 987_654.3, energy: 4_321.5 });
    const first = continued.reading();
    expect(first['cumulativeVolume']).toBe(987_654.3);
    expect(first['energy']).toBe(4_321.5);
    // Two hours on: the meters climbed from there, by what the station's own count climbed.
    const fresh = make();
    fresh.reading();
    clock.now += 2 * 3_600_000;
    const later = continued.reading();
    const freshLater = fresh.reading();
    const climbed =
      (freshLater['cumulativeVolume'] as number) - (own['cumulativeVolume'] as number);
    expect(later['cumulativeVolume'] as number).toBeCloseTo(987_654.3 + climbed, 0);
    expect(later['energy'] as number).toBeGreaterThanOrEqual(4_321.5);
  });
});
