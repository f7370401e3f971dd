import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { freePort, spawnPinned } from './server-process';
import { quantile } from './stats';

/** Debian's Mosquitto, the relay a user could pick instead of our broker (no storage at all). */
export const MOSQUITTO = '/usr/sbin/mosquitto';

export async function mosquittoAvailable(): Promise<boolean> {
  return fs.access(MOSQUITTO).then(
    () => true,
    () => false,
  );
}

export interface RunningMosquitto {
  url: string;
  stop(): Promise<void>;
}

/** Starts a private Mosquitto on a free loopback port, pinned to the server's core. */
export async function startMosquitto(core = 1): Promise<RunningMosquitto> {
  const port = await freePort();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  // Same limits in spirit as ours: unlimited queue for QoS 1 so nothing is dropped, no storage.
  await fs.writeFile(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 0',
      'log_type error',
    ].join('\n'),
  );
  const child = await spawnPinned(core, MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  const url = `mqtt://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 1000 });
      probe.once('connect', () => {
        probe.end(true);
        resolve(true);
      });
      probe.once('error', () => {
        probe.end(true);
        resolve(false);
      });
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error('mosquitto did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A subscriber that counts what arrives on a topic filter and the delay from the publisher's
 * `sentAt` (same machine clock) to arrival: the peer's "stored" is "delivered to one consumer".
 */
export async function countingSubscriber(
  url: string,
  filter: string,
  options: mqtt.IClientOptions = {},
) {
  const delays: number[] = [];
  let received = 0;
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...options });
  client.on('message', (_topic, payload) => {
    received += 1;
    const sent = JSON.parse(payload.toString()) as { ts?: number; sentAt?: number };
    const ts = Number(sent.sentAt ?? sent.ts);
    if (Number.isFinite(ts)) delays.push(Date.now() - ts);
  });
  await client.subscribeAsync(filter, { qos: 1 });
  return {
    get received() {
      return received;
    },
    /** Delays since the last reset, then forgets them. */
    takeDelays() {
      const taken = delays.splice(0);
      return {
        count: taken.length,
        p50Ms: quantile(taken, 0.5),
        p99Ms: quantile(taken, 0.99),
      };
    },
    close: () => client.endAsync(true),
  };
}
