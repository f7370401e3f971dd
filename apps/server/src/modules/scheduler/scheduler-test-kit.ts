import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createTestPostgresDatabase,
  type Backend,
  type TestServer,
} from '@shuili/test-support/test-server';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Database } from '../../db/database';
import { migrate } from '../../db/migrate';
import { openPgliteDatabase } from '../../db/pglite-database';
import { openPostgresDatabase } from '../../db/postgres-database';
import { seed } from '../../db/seed';
import type { RunRow } from './scheduler.repo';

/** A tenant's id by code (the seeded `demo` and `acme`). */
export async function tenantIdOf(db: Database, code: string): Promise<string> {
  const { rows } = await db.systemStatement<{ id: string }>(
    'SELECT id::text FROM tenant WHERE tenant_code = $1',
    [code],
  );
  if (!rows[0]) throw new Error(`no tenant ${code}`);
  return rows[0].id;
}

/** Every run of a trigger key, oldest first (across tenants: tests use unique keys). */
export async function runsOfKey(db: Database, key: string): Promise<RunRow[]> {
  const { rows } = await db.systemStatement<RunRow>(
    `SELECT id::text, trigger_id::text, kind, key, fire_at, state, attempt, node, started_at,
            finished_at, result, error
       FROM scheduler_run r WHERE key = $1 ORDER BY r.fire_at, r.id`,
    [key],
  );
  return rows;
}

/** A trigger's row by key (across tenants: tests use unique keys). */
export async function triggerOfKey(
  db: Database,
  key: string,
): Promise<
  { state: string; attempts: number; due_at: Date; last_error: string | null } | undefined
> {
  const { rows } = await db.systemStatement<{
    state: string;
    attempts: number;
    due_at: Date;
    last_error: string | null;
  }>('SELECT state, attempts, due_at, last_error FROM scheduler_trigger WHERE key = $1', [key]);
  return rows[0];
}

/** Waits for a condition the scheduler reaches on its own (no fixed sleeps in assertions). */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A server that can be stopped and started again on the same database (PGlite in a folder of
 * its own, or a database of its own on the test PostgreSQL): what a restart leaves behind.
 */
export async function restartableServer(backend: Backend): Promise<{
  /** Starts a node (a new app, a new database connection); the first start migrates and seeds. */
  start(): Promise<TestServer>;
  /** Removes the database (after every node was closed). */
  drop(): Promise<void>;
}> {
  const filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-restart-files-'));
  let open: () => Promise<Database>;
  let drop: () => Promise<void>;
  if (backend === 'postgres') {
    const created = await createTestPostgresDatabase();
    open = () => openPostgresDatabase(created.url, 5);
    drop = created.drop;
  } else {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-restart-'));
    open = () => openPgliteDatabase(dir);
    drop = () => fs.rm(dir, { recursive: true, force: true });
  }
  const config = loadConfig({ logLevel: 'warn', mqttPort: 0, dataDir: filesDir, trustProxy: 1 });
  let seeded = false;
  return {
    async start() {
      const db = await open();
      if (!seeded) {
        await migrate(db);
        await seed(db, config);
        seeded = true;
      }
      const app = await buildApp({ config, db, logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      return {
        url: `http://127.0.0.1:${port}`,
        backend,
        db,
        app,
        config,
        close: async () => {
          await app.close();
          await db.close();
        },
      };
    },
    async drop() {
      await drop();
      await fs.rm(filesDir, { recursive: true, force: true });
    },
  };
}
