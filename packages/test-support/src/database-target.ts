// The database a server process runs on: a PGlite folder or a PostgreSQL URL, fresh for each run
// so benchmarks and fault tests never collide with other tests or each other.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '@shuili/server/db/database';
import { openPgliteDatabase } from '@shuili/server/db/pglite-database';
import { openPostgresDatabase } from '@shuili/server/db/postgres-database';
import { createTestPostgresDatabase, type Backend } from './test-server';

export type Target = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

/** Opens the database a server started with this DATA_DIR or DATABASE_URL would open. */
export function openTarget(target: Target, poolSize = 10): Promise<Database> {
  return target.kind === 'pglite'
    ? openPgliteDatabase(path.join(target.dataDir, 'pglite')) // as open-database.ts does
    : openPostgresDatabase(target.url, poolSize);
}

/**
 * A fresh database of the backend (PostgreSQL: a new database on the test server; PGlite: a
 * temporary folder) and how to remove it, so runs never collide with tests or each other.
 */
export async function createFreshTarget(
  backend: Backend,
): Promise<{ target: Target; remove(): Promise<void> }> {
  if (backend === 'postgres') {
    const created = await createTestPostgresDatabase();
    return { target: { kind: 'postgres', url: created.url }, remove: created.drop };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-bench-db-'));
  return {
    target: { kind: 'pglite', dataDir },
    remove: () => fs.rm(dataDir, { recursive: true, force: true }),
  };
}

/** Runs `work` on a fresh database of the backend (createFreshTarget), removed afterwards. */
export async function withFreshTarget<T>(
  backend: Backend,
  work: (target: Target) => Promise<T>,
): Promise<T> {
  const fresh = await createFreshTarget(backend);
  try {
    return await work(fresh.target);
  } finally {
    await fresh.remove();
  }
}
