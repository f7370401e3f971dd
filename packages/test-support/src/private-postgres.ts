import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { onFreePorts } from './server-process';

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Whether a private cluster can be made here: Debian's PostgreSQL 15 binaries and runuser. */
export async function privatePostgresAvailable(): Promise<boolean> {
  const present = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  return (
    (await present(`${BIN}/initdb`)) &&
    (await present(`${BIN}/pg_ctl`)) &&
    (await present('/usr/sbin/runuser'))
  );
}

export interface PrivatePostgres {
  url: string;
  /** pg_ctl stop: `fast` (clients disconnected, clean shutdown) or `immediate` (a crash). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own in a temporary folder, on a free port with its socket in
 * that folder: it can be stopped and started without touching the machine's shared 5432. initdb
 * refuses to run as root, so every command runs as the `postgres` user when the test is root.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-pg-'));
  const data = path.join(dir, 'data');
  const asPostgres = (command: string, args: string[]) =>
    process.getuid?.() === 0
      ? run('/usr/sbin/runuser', ['-u', 'postgres', '--', command, ...args])
      : run(command, args);
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir]);
  await asPostgres(`${BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const log = path.join(dir, 'log');
  // pg_ctl only says "could not start server": the reason (e.g. "could not bind") is in its log.
  const startOn = async (port: number) => {
    // No fsync: the faults are process stops, not power cuts (the OS keeps what was written).
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    await asPostgres(`${BIN}/pg_ctl`, [
      '-D',
      data,
      '-o',
      options,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      'start',
    ]).catch(async (error: unknown) => {
      const printed = await fs.readFile(log, 'utf8').catch(() => '');
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${printed}`);
    });
  };
  // Only the first start may move to another port: the restarts keep the URL clients were given.
  const port = await onFreePorts(1, async ([port]) => {
    await startOn(port!);
    return port!;
  }).catch(async (error: unknown) => {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  });
  const start = () => startOn(port);
  const stop = async (mode: 'fast' | 'immediate') => {
    await asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      await stop('immediate').catch(() => {});
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
