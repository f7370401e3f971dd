import type { ChildProcess, SpawnOptions } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { onFreePorts, spawnPinned } from './server-process';

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
  /** MQTT over WebSocket, as browsers would reach it (Debian's build has libwebsockets). */
  wsUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs Mosquitto on a config file and waits until `url` takes an MQTT connection. Fails with what
 * Mosquitto printed when it exits first ("Address already in use" when its port was taken), and
 * stops it when it does not answer in time.
 */
export async function launchMosquitto(
  conf: string,
  url: string,
  spawnIt: (args: string[], options: SpawnOptions) => Promise<ChildProcess> | ChildProcess,
  timeoutMs = 10_000,
): Promise<ChildProcess> {
  const child = await spawnIt(['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let printed = '';
  child.stderr!.on('data', (chunk) => (printed += chunk));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await mqtt
      .connectAsync(url, { reconnectPeriod: 0, connectTimeout: 1000 }, false)
      .then(async (probe) => {
        await probe.endAsync(true);
        return true;
      })
      .catch(() => false);
    // A probe answered by some other listener on a taken port is not ours: Mosquitto has exited.
    if (up && !exited()) return child;
    if (exited() || Date.now() > deadline) {
      if (!exited()) child.kill('SIGKILL');
      throw new Error(`mosquitto did not start on ${url}: ${printed.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a private Mosquitto on free loopback ports (TCP and WebSocket), pinned to the server's core. */
export function startMosquitto(core = 1): Promise<RunningMosquitto> {
  return onFreePorts(2, ([port, wsPort]) => startMosquittoOn(port!, wsPort!, core));
}

async function startMosquittoOn(
  port: number,
  wsPort: number,
  core: number,
): Promise<RunningMosquitto> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  // Same limits in spirit as ours: unlimited queue for QoS 1 so nothing is dropped, no storage.
  await fs.writeFile(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      `listener ${wsPort} 127.0.0.1`,
      'protocol websockets',
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 0',
      'log_type error',
    ].join('\n'),
  );
  const url = `mqtt://127.0.0.1:${port}`;
  const child = await launchMosquitto(conf, url, (args, options) =>
    spawnPinned(core, MOSQUITTO, args, options),
  ).catch(async (error: unknown) => {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    // taskset execs Mosquitto in its own process: the pid is Mosquitto's.
    pid: child.pid!,
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
