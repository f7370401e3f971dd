import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestPostgresDatabase } from '@shuili/server/testing';
import type { Target } from './user-list-data';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL when TEST_DATABASE_URL is set. */
export function backends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * What a benchmark runs, from its `<NAME>_BACKENDS` variable (e.g. `pglite,postgres,mosquitto`):
 * everything when it is unset.
 */
export function chosenBy(variable: string): (name: string) => boolean {
  const chosen = process.env[variable]?.split(',');
  return (name) => !chosen || chosen.includes(name);
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
