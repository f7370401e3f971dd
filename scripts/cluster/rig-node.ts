// One server node of the rig: the real server process (as `npm start` runs it, with tsx) on a
// fixed port and data folder, so a node killed and started again is the same node to its peers
// and to the broker (same MQTT_NODE_ID, hence the same persistent consumer sessions).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@shuili/test-support/server-process';

export interface NodeProcess {
  readonly pid: number;
  /** Starts the process and waits until it answers healthy with every consumer subscribed. */
  start(): Promise<void>;
  /** Sends a signal and resolves once the process is gone (at once when it is not running). */
  signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Everything the process printed, over all its lives. */
  output(): string;
}

/** How long a node may take to migrate, seed and subscribe (the first one seeds the demo). */
const START_TIMEOUT_MS = 180_000;

/** Characters of a node's output kept for output(). */
const OUTPUT_KEPT = 1_000_000;

export function nodeProcess(name: string, port: number, env: Record<string, string>): NodeProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let printed = '';
  const running = () => !!child && child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;

  const signal = async (which: 'SIGKILL' | 'SIGTERM') => {
    if (running()) child!.kill(which);
    await exited;
  };

  const start = async () => {
    if (running()) return;
    const started = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/src/main.ts')],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      printed += chunk.toString();
      // `npm run cluster` runs for hours: only the recent past is kept.
      if (printed.length > OUTPUT_KEPT) printed = printed.slice(-OUTPUT_KEPT / 2);
    };
    started.stdout!.on('data', keep);
    started.stderr!.on('data', keep);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null)
        throw new Error(`${name} exited while starting:\n${printed.slice(-4000)}`);
      if (Date.now() > deadline) {
        await signal('SIGKILL');
        throw new Error(`${name} did not start in time:\n${printed.slice(-4000)}`);
      }
      if (await ready(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  return {
    get pid() {
      return child?.pid ?? 0;
    },
    start,
    signal,
    output: () => printed,
  };
}

/**
 * Healthy, and ready for the rig's checks: every consumer subscribed on the broker (before that
 * the broker drops readings meant for this node) and ended sessions announced to it (LISTEN).
 */
async function ready(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/health`);
    if (!response.ok) return false;
    const { data } = (await response.json()) as {
      data: { broker: { state: string }; sessionNotifications: string };
    };
    return data.broker.state === 'up' && data.sessionNotifications === 'listening';
  } catch {
    return false;
  }
}
