import fs from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { enterTenant, type Database, type Sql } from './database';

/** Parsers that make PGlite answer like node-postgres: int8 and numeric as strings. */
const parsers = {
  [types.INT8]: (value: string) => value,
  [types.NUMERIC]: (value: string) => value,
};

/** The embedded PostgreSQL (WASM) stored under a folder: the zero-configuration default. */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  await fs.mkdir(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir, { parsers });
  const run = async <T>(work: (sql: Sql) => Promise<T>, tenantId?: string): Promise<T> =>
    pg.transaction(async (tx) => {
      const sql: Sql = {
        query: (text, params) => tx.query(text, params) as never,
        exec: async (script) => {
          await tx.exec(script);
        },
      };
      if (tenantId !== undefined) await enterTenant(sql, tenantId);
      return work(sql);
    });
  return {
    kind: 'pglite',
    system: (work) => run(work),
    tenant: (tenantId, work) => run(work, tenantId),
    // PGlite has one connection in one process, and its transactions already run one at a time.
    withLock: (_key, work) => run(work),
    ping: async () => {
      await pg.query('SELECT 1');
      return true;
    },
    close: () => pg.close(),
  };
}
