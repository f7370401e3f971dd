import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { tenantContextScript, type Database, type Sql, type TenantScope } from './database';

/** Parsers that make PGlite answer like node-postgres: int8 and numeric as strings. */
const parsers = {
  [types.INT8]: (value: string) => value,
  [types.NUMERIC]: (value: string) => value,
};

/**
 * PGlite's files belong to one process: a second one writing the same folder loses data. The
 * first takes a lock file holding its pid; a later one finding a live pid there refuses to start,
 * and a pid that no longer runs (a crash) is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(dataDir, 'shuili.lock');
  for (;;) {
    try {
      await fs.writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await fs.readFile(lockFile, 'utf8').catch(() => ''));
      if (holder && isRunning(holder)) {
        throw new Error(
          `the database in ${dataDir} is in use by process ${holder}; stop it, or give this one another DATA_DIR`,
        );
      }
      await fs.rm(lockFile, { force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The embedded PostgreSQL (WASM) stored under a folder: the zero-configuration default. */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  await fs.mkdir(dataDir, { recursive: true });
  const unlock = await lockDataDir(dataDir);
  const pg = await PGlite.create(dataDir, { parsers }).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  const run = async <T>(work: (sql: Sql) => Promise<T>, scope?: TenantScope | string): Promise<T> =>
    pg.transaction(async (tx) => {
      const sql: Sql = {
        query: (text, params) => tx.query(text, params) as never,
        exec: async (script) => {
          await tx.exec(script);
        },
      };
      if (scope !== undefined) await tx.exec(tenantContextScript(scope));
      return work(sql);
    });
  const database: Database = {
    kind: 'pglite',
    system: (work) => run(work),
    tenant: (scope, work) => run(work, scope),
    // PGlite queues a query behind any open transaction, so it never runs inside another's.
    systemStatement: (text, params) => pg.query(text, params) as never,
    // One connection in one process: a notification reaches it as the change commits.
    listen: async (channel, handlers) => {
      const unlisten = await pg.listen(channel, (payload) => handlers.message(payload));
      return { close: () => unlisten() };
    },
    // PGlite has one connection in one process, and its transactions already run one at a time.
    withLock: (_key, work) => run(work),
    ping: async () => {
      await pg.query('SELECT 1');
      return true;
    },
    // One connection: nothing to reserve, its queue is the order.
    lane: () => database,
    close: async () => {
      await pg.close();
      await unlock();
    },
  };
  return database;
}
