import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchMosquitto, MOSQUITTO } from './mosquitto-peer';
import { onFreePorts } from './server-process';

export interface PrivateMosquitto {
  url: string;
  /** SIGTERM (saves its persistence file) or SIGKILL (nothing saved since the last autosave). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port and persistence folder. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Debian's Mosquitto on a free loopback port of the test's own, anonymous (as
 * external-transport.test.ts runs it: the auth hooks are tested on their own), with persistence
 * on (saved on every change) and no limit on in-flight or queued QoS 1 messages, so it can be
 * stopped and restarted.
 */
export function startPrivateMosquitto(): Promise<PrivateMosquitto> {
  return onFreePorts(1, ([port]) => startPrivateMosquittoOn(port!));
}

async function startPrivateMosquittoOn(port: number): Promise<PrivateMosquitto> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-fault-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  await fs.writeFile(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      // Run as root, Mosquitto switches to the user "mosquitto", which cannot write the test's
      // private folder: naming the current user keeps it (and has no effect for others).
      `user ${os.userInfo().username}`,
      // docs/iot.md's recommended durability: the persistence file is written on a clean exit
      // and after every change (message queued, subscription made), so a SIGKILL loses at most
      // what arrived since the last write.
      'persistence true',
      `persistence_location ${dir}/`,
      'autosave_on_changes true',
      'autosave_interval 1',
      'max_queued_messages 0',
      'max_inflight_messages 0',
      'log_type error',
    ].join('\n') + '\n',
  );
  const url = `mqtt://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = await launchMosquitto(
      conf,
      url,
      (args, options) => spawn(MOSQUITTO, args, options),
      60_000,
    );
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  await start().catch(async (error: unknown) => {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    stop,
    start,
    destroy: async () => {
      await stop('SIGKILL');
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
