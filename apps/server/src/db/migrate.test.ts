import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestPostgresDatabase, TEST_DATABASE_URL } from '@shuili/test-support/test-server';
import { migrate } from './migrate';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';
import { seed } from './seed';

// The demo seed stores device files: in a folder of this test's, not the repository's ./data.
const filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-migrate-files-'));
afterAll(() => fs.rm(filesDir, { recursive: true, force: true }));
const config = loadConfig({ dataDir: filesDir });
const MIGRATION_FILES = (await fs.readdir(fileURLToPath(new URL('./migrations', import.meta.url))))
  .filter((name) => name.endsWith('.sql'))
  .sort();

async function counts(db: Awaited<ReturnType<typeof openPgliteDatabase>>) {
  return db.system(async (sql) => {
    const tenants = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tenant');
    const users = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sys_user');
    const versions = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM schema_migration WHERE version NOT LIKE 'tenancy:%' AND version NOT LIKE 'entities:%'`,
    );
    return { tenants: tenants.rows[0]!.n, users: users.rows[0]!.n, versions: versions.rows[0]!.n };
  });
}

describe('migrations and seed', () => {
  it('apply once on PGlite, and a second start changes nothing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-migrate-'));
    try {
      const db = await openPgliteDatabase(dir);
      expect(await migrate(db)).toEqual(MIGRATION_FILES);
      expect(await seed(db, config)).toEqual(['platform', 'demo', 'acme']);
      const first = await counts(db);
      expect(first).toMatchObject({ tenants: 3, users: 5 });
      await db.close();

      const reopened = await openPgliteDatabase(dir);
      expect(await migrate(reopened)).toEqual([]);
      expect(await seed(reopened, config)).toEqual([]);
      expect(await counts(reopened)).toEqual(first);
      await reopened.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'two nodes starting together on PostgreSQL apply and seed once',
    async () => {
      const created = await createTestPostgresDatabase();
      const nodes = await Promise.all([
        openPostgresDatabase(created.url, 3),
        openPostgresDatabase(created.url, 3),
      ]);
      try {
        const applied = await Promise.all(nodes.map((db) => migrate(db)));
        // Each migration is applied by exactly one of the two nodes.
        expect(applied.flat().sort()).toEqual(MIGRATION_FILES);
        const seeded = await Promise.all(nodes.map((db) => seed(db, config)));
        expect(seeded.flat().sort()).toEqual(['acme', 'demo', 'platform']);
        expect(await counts(nodes[0]!)).toMatchObject({
          tenants: 3,
          users: 5,
          versions: MIGRATION_FILES.length,
        });
      } finally {
        await Promise.all(nodes.map((db) => db.close()));
        await created.drop();
      }
    },
  );

  it('refuses a second process on the same PGlite folder, and takes over after a crash', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-lock-'));
    try {
      const first = await openPgliteDatabase(dir);
      await expect(openPgliteDatabase(dir)).rejects.toThrow(/in use by process \d+/);
      await first.close();
      // A crashed holder leaves its lock file behind with a pid that no longer runs.
      await fs.writeFile(path.join(dir, 'shuili.lock'), '2147483646');
      const second = await openPgliteDatabase(dir);
      await second.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('a failing migration leaves nothing behind', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-migrate-'));
    const db = await openPgliteDatabase(dir);
    try {
      await expect(
        db.system(async (sql) => {
          await sql.exec('CREATE TABLE half_written (id int)');
          await sql.exec('SELECT no_such_function()');
        }),
      ).rejects.toThrow(/no_such_function/);
      const { rows } = await db.system((sql) =>
        sql.query(`SELECT to_regclass('half_written') AS t`),
      );
      expect(rows[0]).toEqual({ t: null });
    } finally {
      await db.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
