// Seeded databases made once every few minutes and copied: seed() (the demo tenants, their
// screens' data and three days of history) was half of a test server's start, about 7 s of a
// loaded machine's CPU on either backend, and every test file starts one or two servers. A copy of
// a seeded template holds the same rows; seed() then finds nothing to do.
//
// The demo's data is relative to the time it was seeded (its history ends then, today's storm is
// today's). A template is used only while it is younger than SEEDED_MAX_AGE_MS, which keeps the
// data's "now" within minutes of the test's, as it already was for the last test of a long file.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '@shuili/server/db/database';
import { migrate } from '@shuili/server/db/migrate';
import { dumpPgliteFolder, openPgliteMemoryDatabase } from '@shuili/server/db/pglite-database';
import { openPostgresDatabase } from '@shuili/server/db/postgres-database';
import { seed, type SeedConfig } from '@shuili/server/db/seed';
import {
  migratedPgliteCluster,
  migratedPostgresTemplate,
  migratedSchemaKey,
  retryWhileInUse,
  withAdmin,
} from './migrated-template';

/** A server starts on a copy of a seeded template only while the template is younger than this. */
export const SEEDED_MAX_AGE_MS = 3 * 60_000;
/** Older seeded templates are removed when a new one is made (nothing copies them any more). */
const REMOVE_AFTER_MS = 10 * 60_000;

const PGLITE_PREFIX = 'shuili-pglite-seeded-';
const POSTGRES_PREFIX = 'shuili_seeded_';

/** A seeded template: where its database is, and the data folder its seed wrote files into. */
interface Seeded {
  /** The PGlite cluster's dump (a tarball file), or the PostgreSQL database's name. */
  database: string;
  /** Copied into the new server's DATA_DIR (the demo's files when they are kept on disk). */
  dataDir: string;
  madeAt: number;
}

/**
 * The settings seed() reads that shape what it provisions: a template is made for each set of
 * them (a server's whole config is passed; only these count).
 */
const SEED_SETTINGS = [
  'demoCardSessions',
  'demoHistoryDays',
  'demoPasswords',
  'fileStorage',
  'seedDemo',
] as const satisfies readonly (keyof SeedConfig)[];
/** Settings seed() writes again at every start (the browser client's row): any template serves. */
const REAPPLIED_SETTINGS = [
  'accessTokenSeconds',
  'browserClientSecret',
  'refreshTokenSeconds',
] as const satisfies readonly (keyof SeedConfig)[];
// A setting seed() comes to read is a compile error here until it is in one of the lists.
const everySetting: Exclude<
  keyof SeedConfig,
  'dataDir' | (typeof SEED_SETTINGS)[number] | (typeof REAPPLIED_SETTINGS)[number]
> extends never
  ? true
  : never = true;
void [everySetting, REAPPLIED_SETTINGS];

/** What a seed depends on: the schema and the seed's settings. */
async function seedKey(config: SeedConfig): Promise<string> {
  const settings = SEED_SETTINGS.map((name) => [name, config[name]]);
  return crypto
    .createHash('sha256')
    .update(await migratedSchemaKey())
    .update(JSON.stringify(settings))
    .digest('hex')
    .slice(0, 12);
}

/** `{prefix}{key}-{madeAt}` and the like: the time a template's seed began, from its name. */
function madeAtOf(name: string): number {
  return Number(/(\d+)$/.exec(name)?.[1] ?? 0);
}

/** Migrates and seeds a database the way a test server's start would, files in `dataDir`. */
async function seedInto(db: Database, config: SeedConfig, dataDir: string): Promise<void> {
  await migrate(db);
  await seed(db, { ...config, dataDir });
}

let migratedDump: Promise<Blob> | undefined;

/**
 * The migrated PGlite template as a dump, made once per process from a copy of its folder (the
 * folder is shared with other processes: opening it in place would write to it).
 */
function migratedPgliteDump(): Promise<Blob> {
  migratedDump ??= (async () => {
    const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-pglite-dumping-'));
    try {
      await fs.cp(await migratedPgliteCluster(), copy, { recursive: true });
      return await dumpPgliteFolder(copy);
    } finally {
      await fs.rm(copy, { recursive: true, force: true });
    }
  })();
  migratedDump.catch(() => (migratedDump = undefined));
  return migratedDump;
}

const making = new Map<string, Promise<Seeded>>();

/**
 * The youngest seeded template of this key that is fresh enough, found among those any process
 * made (`list`), or one made now (once per process and key at a time: parallel starts wait for
 * the same one).
 */
async function freshTemplate(
  key: string,
  list: () => Promise<Seeded[]>,
  make: (madeAt: number) => Promise<Seeded>,
  remove: (old: Seeded[]) => Promise<void>,
): Promise<Seeded> {
  const fresh = (one: Seeded | undefined) => one && Date.now() - one.madeAt < SEEDED_MAX_AGE_MS;
  const mine = making.get(key);
  if (mine && fresh(await mine.catch(() => undefined))) return mine;
  const existing = await list();
  const youngest = existing.sort((a, b) => b.madeAt - a.madeAt)[0];
  if (fresh(youngest)) return youngest!;
  const underWay = making.get(key);
  if (underWay && underWay !== mine) return underWay;
  const made = (async () => {
    await remove(existing.filter((one) => Date.now() - one.madeAt > REMOVE_AFTER_MS));
    return make(Date.now());
  })();
  // Kept once made: the next start of this process finds it without listing.
  made.catch(() => making.delete(key));
  making.set(key, made);
  return made;
}

const dumps = new Map<string, { path: string; dump: Promise<Blob> }>();

/**
 * A seeded template for this configuration as a PGlite dump to load into memory
 * (openPgliteMemoryDatabase), and the data folder whose files belong with it. The template is a
 * folder holding the dump (`cluster.tar`) and that data folder; each process reads a dump once.
 */
export async function seededPgliteDump(
  config: SeedConfig,
): Promise<{ dump: Blob; dataDir: string }> {
  const key = await seedKey(config);
  const template = await freshTemplate(
    `pglite:${key}`,
    async () =>
      (await fs.readdir(os.tmpdir()).catch(() => [] as string[]))
        .filter((name) => name.startsWith(`${PGLITE_PREFIX}${key}-`))
        .map((name) => {
          const folder = path.join(os.tmpdir(), name);
          return {
            database: path.join(folder, 'cluster.tar'),
            dataDir: path.join(folder, 'data'),
            madeAt: madeAtOf(name),
          };
        }),
    async (madeAt) => {
      // Made in a folder of its own and renamed into place: no process reads half a template.
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-pglite-seeding-'));
      try {
        // Seeded in memory from the migrated template's dump: no cluster folder to copy and open.
        const db = await openPgliteMemoryDatabase(await migratedPgliteDump());
        let dump: Blob;
        try {
          await seedInto(db, config, path.join(folder, 'data'));
          dump = await db.dump();
        } finally {
          await db.close();
        }
        await fs.writeFile(path.join(folder, 'cluster.tar'), Buffer.from(await dump.arrayBuffer()));
        const named = path.join(os.tmpdir(), `${PGLITE_PREFIX}${key}-${madeAt}`);
        await fs.rename(folder, named);
        return {
          database: path.join(named, 'cluster.tar'),
          dataDir: path.join(named, 'data'),
          madeAt,
        };
      } catch (error) {
        await fs.rm(folder, { recursive: true, force: true });
        throw error;
      }
    },
    async (old) => {
      for (const one of old)
        await fs.rm(path.dirname(one.database), { recursive: true, force: true }).catch(() => {});
    },
  );
  // The newest dump of each key stays in memory (70 MB); an older one is dropped.
  let read = dumps.get(key);
  if (read?.path !== template.database) {
    read = {
      path: template.database,
      dump: fs.readFile(template.database).then((bytes) => new Blob([bytes])),
    };
    read.dump.catch(() => dumps.delete(key));
    dumps.set(key, read);
  }
  return { dump: await read.dump, dataDir: template.dataDir };
}

/**
 * The name of a seeded template database for this configuration on the test PostgreSQL (copy it
 * with CREATE DATABASE … TEMPLATE, retrying while another copy is under way), and the data
 * folder whose files belong with it.
 */
export async function seededPostgresTemplate(
  adminUrl: string,
  config: SeedConfig,
): Promise<{ name: string; dataDir: string }> {
  const key = await seedKey(config);
  const filesOf = (name: string) => path.join(os.tmpdir(), `${name}-data`);
  const template = await freshTemplate(
    `postgres:${adminUrl}:${key}`,
    () =>
      withAdmin(adminUrl, async (admin) => {
        const { rows } = await admin.query<{ name: string }>(
          'SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)',
          [`${POSTGRES_PREFIX}${key}_`],
        );
        return rows.map(({ name }) => ({
          database: name,
          dataDir: filesOf(name),
          madeAt: madeAtOf(name),
        }));
      }),
    async (madeAt) => {
      const seeding = `shuili_seeding_${crypto.randomBytes(6).toString('hex')}`;
      const migrated = await migratedPostgresTemplate(adminUrl);
      await withAdmin(adminUrl, (admin) =>
        retryWhileInUse(() => admin.query(`CREATE DATABASE ${seeding} TEMPLATE ${migrated}`)),
      );
      const url = new URL(adminUrl);
      url.pathname = `/${seeding}`;
      const name = `${POSTGRES_PREFIX}${key}_${madeAt}`;
      try {
        const db = await openPostgresDatabase(url.toString(), 2);
        try {
          await seedInto(db, config, filesOf(name));
        } finally {
          await db.close();
        }
        // Renamed once seeded: no process copies a half-seeded database.
        await withAdmin(adminUrl, (admin) =>
          retryWhileInUse(() => admin.query(`ALTER DATABASE ${seeding} RENAME TO ${name}`)),
        );
      } catch (error) {
        await withAdmin(adminUrl, (admin) =>
          admin.query(`DROP DATABASE IF EXISTS ${seeding} WITH (FORCE)`),
        ).catch(() => {});
        await fs.rm(filesOf(name), { recursive: true, force: true });
        throw error;
      }
      return { database: name, dataDir: filesOf(name), madeAt };
    },
    (old) =>
      withAdmin(adminUrl, async (admin) => {
        for (const one of old) {
          await admin.query(`DROP DATABASE IF EXISTS ${one.database}`).catch(() => {});
          await fs.rm(one.dataDir, { recursive: true, force: true });
        }
      }),
  );
  return { name: template.database, dataDir: template.dataDir };
}

/** Copies the files a seeded template's seed wrote into a new server's DATA_DIR. */
export async function copySeededFiles(from: string, dataDir: string): Promise<void> {
  const exists = await fs.stat(from).then(
    () => true,
    () => false,
  );
  if (exists) await fs.cp(from, dataDir, { recursive: true });
}
