import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Whether `taskset` can pin processes to cores here (two cores or more). */
export async function canPin(): Promise<boolean> {
  return (
    os.availableParallelism() >= 2 &&
    (await fs.access('/usr/bin/taskset').then(
      () => true,
      () => false,
    ))
  );
}

/** Runs a command pinned to one core when the machine allows, so load and server do not share. */
export async function spawnPinned(
  core: number,
  command: string,
  args: string[],
  options: Parameters<typeof spawn>[2],
): Promise<ChildProcess> {
  return (await canPin())
    ? spawn('taskset', ['-c', String(core), command, ...args], options)
    : spawn(command, args, options);
}

/**
 * Runs work with this process (every thread: the load generator) pinned to one core, so it does
 * not take the server's; its previous affinity is restored afterwards.
 */
export async function withPinnedSelf<T>(core: number, work: () => Promise<T>): Promise<T> {
  if (!(await canPin())) return work();
  const taskset = (...args: string[]) => promisify(execFile)('taskset', args);
  const { stdout } = await taskset('-p', String(process.pid));
  const previous = stdout.trim().split(/\s+/).pop()!; // "pid 123's current affinity mask: 3"
  await taskset('-a', '-p', '-c', String(core), String(process.pid));
  try {
    return await work();
  } finally {
    await taskset('-a', '-p', previous, String(process.pid));
  }
}

export interface RunningServer {
  url: string;
  pid: number;
  /** What the server printed so far (LOG_LEVEL=warn: its warnings and errors). */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** A data folder prepared beforehand (kept at stop); else a fresh temporary one (removed). */
  dataDir?: string;
  /** Extra flags for node, e.g. --cpu-prof. */
  nodeArgs?: string[];
}

/** Starts the real server process (as `npm start` runs it) and waits until it listens. */
export async function startServer(
  env: Record<string, string>,
  core = 1,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-bench-')));
  const child = await spawnPinned(
    core,
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'apps/server/src/main.ts'),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST: '',
        LOG_LEVEL: 'warn',
        MQTT_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (ownDataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const failure =
      child.exitCode !== null
        ? 'server exited'
        : Date.now() > deadline
          ? 'server did not start'
          : undefined;
    if (failure) {
      await stop();
      throw new Error(`${failure}:\n${output}`);
    }
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, pid: child.pid!, output: () => output, stop };
}
