import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Node flags that make a spawned process stop once its starter is gone (exit-with-parent.mjs), so
 * a test ended by a timeout or a signal leaves no server running. Put them before the script.
 */
export const EXIT_WITH_PARENT = [
  '--import',
  fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url)),
];

/**
 * A port nothing listens on now, for a child process to bind. It is picked at random below the
 * kernel's ephemeral range: ports in that range are also handed out to every outbound connection
 * and to every listen(0) of the tests running alongside, which can take it before the child binds
 * (onFreePorts covers what remains). Falls back to the kernel's pick where the range is unknown.
 */
export async function freePort(): Promise<number> {
  const below = await ephemeralRangeStart();
  if (below > FIRST_PICKED_PORT + 1000) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = FIRST_PICKED_PORT + Math.floor(Math.random() * (below - FIRST_PICKED_PORT));
      if (await canListen(port)) return port;
    }
  }
  return kernelPickedPort();
}

/** Below this, well-known services live (PostgreSQL 5432, MQTT 1883/8883, HTTP 8080). */
const FIRST_PICKED_PORT = 10_000;

/** The first port of the kernel's ephemeral range (0 where it cannot be read). */
export async function ephemeralRangeStart(): Promise<number> {
  const range = await fs.readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  return Number(range.trim().split(/\s+/)[0]) || 0;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function kernelPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * Whether a start failed because a port was taken: Node says EADDRINUSE, Mosquitto "Address
 * already in use", PostgreSQL "could not bind" (neither of the last two names the port).
 */
export function isPortClash(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /EADDRINUSE|address already in use|could not bind/i.test(message);
}

/**
 * Starts something on ports picked by freePort, again on fresh ones when a port was taken in
 * between: freePort must release its probe before the child binds, and in that gap any process
 * (another test's listener, or an outbound connection's ephemeral port) may take it. Seen in CI.
 */
export async function onFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const ports: number[] = [];
    while (ports.length < count) {
      const port = await freePort(); // none is held yet: the same port could come twice
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= attempts || !isPortClash(error)) throw error;
    }
  }
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

/** Starts the real server process (as `npm start` runs it) on a free port and waits until it listens. */
export function startServer(
  env: Record<string, string>,
  core = 1,
  options: ServerOptions = {},
): Promise<RunningServer> {
  return onFreePorts(1, ([port]) => startServerOn(port!, env, core, options));
}

/** One try of startServer on a given port (fails naming EADDRINUSE when it is taken). */
export async function startServerOn(
  port: number,
  env: Record<string, string>,
  core = 1,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-bench-')));
  const child = await spawnPinned(
    core,
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...EXIT_WITH_PARENT,
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
        // No simulated past written at start: a benchmark's or fault test's database is prepared
        // beforehand, and its peers (on PGlite, a copy of the folder) must read the same rows.
        DEMO_HISTORY_DAYS: '0',
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
