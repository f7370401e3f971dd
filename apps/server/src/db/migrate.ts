import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTITIES } from '@shuili/contract';
import { entitiesDdl } from '../entity/entity-ddl';
import type { Database } from './database';

const here = path.dirname(fileURLToPath(import.meta.url));
const MIGRATIONS_DIR = path.join(here, 'migrations');
/**
 * Idempotent scripts applied after the migrations and the entity tables (they cover every table,
 * entity tables included): row-level security, users' zones and the database's announcements
 * of access changes, and of device identities that ended.
 */
const AFTER_SCRIPTS = ['tenancy.sql', 'access.sql', 'device-notify.sql'].map((name) =>
  path.join(here, name),
);

const hashOf = (text: string) =>
  crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Applies the migrations not yet applied, in file-name order, then the scripts after them when a
 * migration ran or a script changed (it takes strong locks on every tenant table, which a node
 * starting beside live ones must not do for nothing). Everything runs in one transaction under
 * an advisory lock, so two nodes starting together apply each migration once and a failed
 * migration leaves nothing behind.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return db.withLock('shuili:migrate', async (sql) => {
    await sql.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await sql.query<{ version: string }>('SELECT version FROM schema_migration')).rows.map(
        (row) => row.version,
      ),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await sql.exec(await fs.readFile(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await sql.query('INSERT INTO schema_migration (version) VALUES ($1)', [file]);
      applied.push(file);
    }
    // The tables the entity declarations ask for, whenever the declarations changed.
    const entities = entitiesDdl(ENTITIES);
    const entitiesVersion = `entities:${hashOf(entities)}`;
    const entitiesChanged = !done.has(entitiesVersion);
    if (entitiesChanged) {
      await sql.exec(entities);
      await sql.query(`DELETE FROM schema_migration WHERE version LIKE 'entities:%'`);
      await sql.query('INSERT INTO schema_migration (version) VALUES ($1)', [entitiesVersion]);
    }
    const scripts = await Promise.all(AFTER_SCRIPTS.map((file) => fs.readFile(file, 'utf8')));
    const tenancyVersion = `tenancy:${hashOf(scripts.join('\n'))}`;
    if (applied.length > 0 || entitiesChanged || !done.has(tenancyVersion)) {
      // Wait briefly for live nodes' row locks, then fail the start rather than stall them.
      await sql.query(`SET LOCAL lock_timeout = '10s'`);
      for (const script of scripts) await sql.exec(script);
      await sql.query(`DELETE FROM schema_migration WHERE version LIKE 'tenancy:%'`);
      await sql.query('INSERT INTO schema_migration (version) VALUES ($1)', [tenancyVersion]);
    }
    return applied;
  });
}
