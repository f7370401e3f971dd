import { deviceTopic } from '@shuili/contract';
import type { BenchDevice } from '@shuili/test-support/ingest-data';
import { BENCH_TENANT } from '@shuili/test-support/iot-server';
import mqtt, { type MqttClient } from 'mqtt';
import { quantile } from './stats';

/** One simulated device of the load: where it publishes and how it signs in (none for peers). */
export interface LoadDevice {
  topic: string;
  clientId: string;
  username?: string;
  password?: string;
}

/** The bench devices as MQTT publishers of their own telemetry topic, with their credentials. */
export function deviceLoad(bench: BenchDevice[]): LoadDevice[] {
  return bench.map((device) => ({
    topic: deviceTopic(BENCH_TENANT, device.deviceNo, 'telemetry'),
    clientId: device.identity,
    username: device.identity,
    password: device.secret,
  }));
}

/** The same topics for a peer broker without accounts (Mosquitto). */
export function anonymousLoad(count: number): LoadDevice[] {
  return Array.from({ length: count }, (_, i) => ({
    topic: deviceTopic(BENCH_TENANT, `B${String(i + 1).padStart(5, '0')}`, 'telemetry'),
    clientId: `bench-${i}`,
  }));
}

/** What one rate step measured at the publishers. */
export interface StepResult {
  /** Messages per second asked for (0: as fast as acknowledgements allow). */
  targetPerSecond: number;
  seconds: number;
  sent: number;
  /** Publishes the broker acknowledged (the embedded broker: stored; Mosquitto: taken). */
  acknowledged: number;
  /**
   * Publishes without an acknowledgement at the end of the step's drain: still in flight or
   * queued, refused at once (`failed`), or on a connection the broker closed. Not lost: the
   * device never heard "taken" and a real device sends them again. Loss is only what was
   * acknowledged and is not stored, counted by the benchmark against the database.
   */
  unacknowledged: number;
  /** Publishes the client refused at once (its connection was closed or closing). */
  failed: number;
  /** Acknowledged messages per second, first publish to last acknowledgement. */
  ackedPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
  /**
   * Due messages a device did not send because `maxInFlight` of its own were still waiting for
   * an acknowledgement: the broker's back-pressure as the devices feel it (rate steps only).
   */
  heldBack?: number;
  /** From the end of the step until the last acknowledgement came in (the queue drained). */
  drainedAfterMs?: number;
}

/**
 * Connects every device (a few at a time, as a field of devices coming up would). With
 * `reconnectPeriod` (ms) a device the broker dropped comes back and resends what it had in
 * flight, as a field device does; by default it stays away.
 */
export async function connectDevices(
  url: string,
  devices: LoadDevice[],
  reconnectPeriod = 0,
): Promise<MqttClient[]> {
  const clients: MqttClient[] = [];
  const batch = 50;
  for (let start = 0; start < devices.length; start += batch) {
    const chunk = devices.slice(start, start + batch);
    clients.push(
      ...(await Promise.all(
        chunk.map(
          (device) =>
            new Promise<MqttClient>((resolve, reject) => {
              const client = mqtt.connect(url, {
                clientId: device.clientId,
                username: device.username,
                password: device.password,
                reconnectPeriod,
                reconnectOnConnackError: reconnectPeriod > 0,
                connectTimeout: 30_000,
                keepalive: 60,
                clean: true,
              });
              client.once('connect', () => resolve(client));
              client.once('error', (error) => {
                client.end(true);
                reject(error);
              });
            }),
        ),
      )),
    );
  }
  return clients;
}

export async function disconnectAll(clients: MqttClient[]): Promise<void> {
  await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
}

/**
 * Publishes QoS 1 telemetry from every device round-robin, at `perSecond` in total for `seconds`
 * (0: each device keeps `window` messages in flight, as fast as the broker acknowledges), then
 * waits up to `drainSeconds` for the last acknowledgements. With `maxInFlight`, a device whose
 * window is full skips its due message (counted as held back), as a device with a bounded
 * outgoing queue would, instead of buffering without limit in the load generator.
 */
export async function publishStep(
  clients: MqttClient[],
  devices: LoadDevice[],
  payloadOf: (sentAt: number, device: number) => string,
  options: {
    perSecond: number;
    seconds: number;
    drainSeconds?: number;
    window?: number;
    maxInFlight?: number;
    /**
     * As fast as it goes only: while this answers true the slots wait instead of publishing
     * (the external broker acknowledges at once, so the load is held to what the node stores).
     */
    pause?: () => boolean;
    /** Each acknowledged message's device and payload (the loss check keeps their readings). */
    onAcknowledged?: (device: number, payload: string) => void;
  },
): Promise<StepResult> {
  const latencies: number[] = [];
  const inFlight = new Uint32Array(clients.length);
  let heldBack = 0;
  let due = 0;
  let sent = 0;
  let acknowledged = 0;
  let failed = 0;
  let lastAck = 0;
  const started = Date.now();
  const until = started + options.seconds * 1000;

  /** Publishes one message; `onDone(true)` once acknowledged, `onDone(false)` when refused. */
  const publishOne = (index: number, onDone?: (acked: boolean) => void) => {
    const sentAt = Date.now();
    sent += 1;
    // A connection the broker closed (shedding) cannot publish: counted as failed, and the
    // device stays quiet (mqtt.js would throw on its closed store).
    if (!clients[index]!.connected) {
      failed += 1;
      return;
    }
    inFlight[index] = inFlight[index]! + 1;
    const payload = payloadOf(sentAt, index);
    clients[index]!.publish(devices[index]!.topic, payload, { qos: 1 }, (error) => {
      inFlight[index] = inFlight[index]! - 1;
      if (error) failed += 1;
      else {
        acknowledged += 1;
        lastAck = Date.now();
        latencies.push(lastAck - sentAt);
        options.onAcknowledged?.(index, payload);
      }
      onDone?.(!error);
    });
  };

  if (options.perSecond > 0) {
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = Date.now();
        const dueNow = Math.floor(((Math.min(now, until) - started) / 1000) * options.perSecond);
        for (; due < dueNow; due += 1) {
          if (options.maxInFlight !== undefined && inFlight[next]! >= options.maxInFlight)
            heldBack += 1;
          else publishOne(next);
          next = (next + 1) % clients.length;
        }
        if (now >= until) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
  } else {
    const window = options.window ?? 4;
    await new Promise<void>((resolve) => {
      // Each slot publishes again when its last message is acknowledged, until the step ends. A
      // slot on a connection the broker closed never hears back, so the step ends on the clock
      // (what is still in flight is awaited below), not when every slot has stopped.
      // mqtt.js calls a publish back at once when its client is closing: publishing again from
      // inside that call recursed without end (a stack overflow on PGlite's saturated step), so
      // an answer that comes back at once continues on the next turn of the event loop, and a
      // refused publish ends its slot instead of spinning on a client that cannot send.
      const loop = (index: number) => {
        if (Date.now() >= until) return;
        if (options.pause?.()) {
          setTimeout(loop, 10, index);
          return;
        }
        let returned = false;
        publishOne(index, (acked) => {
          if (!acked) return;
          if (returned) loop(index);
          else setImmediate(loop, index);
        });
        returned = true;
      };
      for (let index = 0; index < clients.length; index += 1)
        for (let slot = 0; slot < window; slot += 1) loop(index);
      setTimeout(resolve, Math.max(0, until - Date.now()));
    });
  }

  const stoppedAt = Date.now();
  const drainUntil = stoppedAt + (options.drainSeconds ?? 30) * 1000;
  // Messages in flight on a connection the broker closed never complete (mqtt.js keeps them
  // for a reconnect that the load does not make): they count as unacknowledged, not awaited.
  const stranded = () =>
    clients.reduce((sum, client, i) => sum + (client.connected ? 0 : inFlight[i]!), 0);
  while (acknowledged + failed + stranded() < sent && Date.now() < drainUntil)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const elapsed = Math.max(1, (lastAck || Date.now()) - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    targetPerSecond: options.perSecond,
    seconds: options.seconds,
    sent,
    acknowledged,
    unacknowledged: sent - acknowledged,
    failed,
    ackedPerSecond: Math.round(acknowledged / elapsed),
    ackP50Ms: quantile(latencies, 0.5),
    ackP99Ms: quantile(latencies, 0.99),
    ...(options.maxInFlight !== undefined ? { heldBack } : {}),
    drainedAfterMs: Math.max(0, (lastAck || stoppedAt) - stoppedAt),
  };
}

/** Reads a process's resident memory in MiB (Linux), or 0 where /proc is absent. */
export async function residentMiB(pid: number): Promise<number> {
  const fs = await import('node:fs/promises');
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : 0;
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; 0 where /proc is missing.
 * CPU per stored point compares versions of the server even when other work slows the machine.
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const fs = await import('node:fs/promises');
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return Number.isFinite(ticks) ? ticks / 100 : 0;
}
