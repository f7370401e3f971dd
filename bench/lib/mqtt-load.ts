import mqtt, { type MqttClient } from 'mqtt';
import { quantile } from './stats';

/** One simulated device of the load: where it publishes and how it signs in (none for peers). */
export interface LoadDevice {
  topic: string;
  clientId: string;
  username?: string;
  password?: string;
}

/** What one rate step measured at the publishers. */
export interface StepResult {
  /** Messages per second asked for (0: as fast as acknowledgements allow). */
  targetPerSecond: number;
  seconds: number;
  sent: number;
  acknowledged: number;
  /** Publishes that failed or were never acknowledged within the drain time. */
  lost: number;
  /** Acknowledged messages per second, first publish to last acknowledgement. */
  ackedPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
}

/** Connects every device (a few at a time, as a field of devices coming up would). */
export async function connectDevices(url: string, devices: LoadDevice[]): Promise<MqttClient[]> {
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
                reconnectPeriod: 0,
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
 * waits up to `drainSeconds` for the last acknowledgements.
 */
export async function publishStep(
  clients: MqttClient[],
  devices: LoadDevice[],
  payloadOf: (sentAt: number, device: number) => string,
  options: { perSecond: number; seconds: number; drainSeconds?: number; window?: number },
): Promise<StepResult> {
  const latencies: number[] = [];
  let sent = 0;
  let acknowledged = 0;
  let failed = 0;
  let lastAck = 0;
  const started = Date.now();
  const until = started + options.seconds * 1000;

  const publishOne = (index: number, onDone?: () => void) => {
    const sentAt = Date.now();
    sent += 1;
    clients[index]!.publish(
      devices[index]!.topic,
      payloadOf(sentAt, index),
      { qos: 1 },
      (error) => {
        if (error) failed += 1;
        else {
          acknowledged += 1;
          lastAck = Date.now();
          latencies.push(lastAck - sentAt);
        }
        onDone?.();
      },
    );
  };

  if (options.perSecond > 0) {
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = Date.now();
        const due = Math.floor(((Math.min(now, until) - started) / 1000) * options.perSecond);
        while (sent < due) {
          publishOne(next);
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
      let running = 0;
      const loop = (index: number) => {
        if (Date.now() >= until) {
          running -= 1;
          if (running === 0) resolve();
          return;
        }
        publishOne(index, () => loop(index));
      };
      for (let index = 0; index < clients.length; index += 1)
        for (let slot = 0; slot < window; slot += 1) {
          running += 1;
          loop(index);
        }
    });
  }

  const drainUntil = Date.now() + (options.drainSeconds ?? 30) * 1000;
  while (acknowledged + failed < sent && Date.now() < drainUntil)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const elapsed = Math.max(1, (lastAck || Date.now()) - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    targetPerSecond: options.perSecond,
    seconds: options.seconds,
    sent,
    acknowledged,
    lost: sent - acknowledged,
    ackedPerSecond: Math.round(acknowledged / elapsed),
    ackP50Ms: quantile(latencies, 0.5),
    ackP99Ms: quantile(latencies, 0.99),
  };
}

/** Reads a process's resident memory in MiB (Linux), or 0 where /proc is absent. */
export async function residentMiB(pid: number): Promise<number> {
  const fs = await import('node:fs/promises');
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : 0;
}
