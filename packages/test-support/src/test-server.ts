import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@shuili/server/app';
import { loadConfig, type Config } from '@shuili/server/config';
import type { Database } from '@shuili/server/db/database';
import { migrate } from '@shuili/server/db/migrate';
import { openPgliteMemoryDatabase } from '@shuili/server/db/pglite-database';
import { openPostgresDatabase } from '@shuili/server/db/postgres-database';
import { seed } from '@shuili/server/db/seed';
import { migratedPostgresTemplate, retryWhileInUse, withAdmin } from './migrated-template';
import { copySeededFiles, seededPgliteDump, seededPostgresTemplate } from './seeded-template';

export type Backend = 'pglite' | 'postgres';

export interface TestServer {
  url: string;
  backend: Backend;
  db: Database;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/** The external PostgreSQL of the test run, when TEST_DATABASE_URL names one. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** Backends a suite runs on: always PGlite, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: { backend: Backend; available: boolean }[] = [
  { backend: 'pglite', available: true },
  { backend: 'postgres', available: Boolean(TEST_DATABASE_URL) },
];

/**
 * Creates a database of its own on the test PostgreSQL, empty or (`migrated`) a copy of the
 * migrated template; answers its URL and a dropper.
 */
export async function createTestPostgresDatabase(
  options: {
    migrated?: boolean;
    /** A database to copy (a seeded template); else the migrated template or nothing. */
    template?: string;
  } = {},
): Promise<{
  url: string;
  drop(): Promise<void>;
}> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `shuili_test_${crypto.randomBytes(6).toString('hex')}`;
  const template =
    options.template ??
    (options.migrated ? await migratedPostgresTemplate(TEST_DATABASE_URL) : undefined);
  await withAdmin(TEST_DATABASE_URL, (admin) =>
    // Another process may be copying the same template at this moment.
    retryWhileInUse(() =>
      admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`),
    ),
  );
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(TEST_DATABASE_URL, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      ).then(() => undefined),
  };
}

/**
 * Starts the real server on a free loopback port over a fresh, migrated and seeded database:
 * an embedded PGlite in this process's memory, or a new database on the test PostgreSQL, each a
 * copy of a seeded template of this configuration (seeded-template.ts), which migrate() and seed()
 * then find up to date.
 */
export async function startTestServer(
  options: {
    backend?: Backend;
    config?: Partial<Config>;
    /** Registers more on the built app before it listens (parts not yet wired into app.ts). */
    beforeListen?: (app: FastifyInstance, db: Database) => Promise<void>;
  } = {},
): Promise<TestServer> {
  const backend = options.backend ?? 'pglite';
  // Uploads (and the demo's seeded files) go to a folder of the test's own unless it names one,
  // never into the repository's ./data.
  const filesDir = options.config?.dataDir
    ? undefined
    : await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-test-files-'));
  // Tests pose as many clients through X-Forwarded-For, as if behind one proxy.
  // An ephemeral MQTT port: parallel test servers must not fight over 1883.
  const config = loadConfig({
    trustProxy: 1,
    logLevel: 'warn',
    mqttPort: 0,
    // Three days of the demo's simulated past: its screens have data, and a server starts quickly.
    demoHistoryDays: 3,
    // The card session tests play the demo's controllers from their first record.
    demoCardSessions: false,
    ...(filesDir ? { dataDir: filesDir } : {}),
    ...options.config,
  });
  let cleanup: () => Promise<void>;
  let db: Database;
  let seededFiles: string;
  if (backend === 'postgres') {
    const template = await seededPostgresTemplate(TEST_DATABASE_URL!, config);
    const created = await createTestPostgresDatabase({ template: template.name });
    db = await openPostgresDatabase(created.url, 5);
    cleanup = created.drop;
    seededFiles = template.dataDir;
  } else {
    // In this process's memory: nothing of it outlives the server (test-server.ts's callers
    // never reopen its database), and it answers faster than a folder.
    const template = await seededPgliteDump(config);
    db = await openPgliteMemoryDatabase(template.dump);
    cleanup = async () => {};
    seededFiles = template.dataDir;
  }
  if (filesDir) {
    const dropDatabase = cleanup;
    cleanup = async () => {
      await dropDatabase();
      await fs.rm(filesDir, { recursive: true, force: true });
    };
  }
  await copySeededFiles(seededFiles, config.dataDir);
  await migrate(db);
  await seed(db, config);
  const app = await buildApp({
    config,
    db,
    logger: process.env.TEST_LOG ? { level: 'info' } : false,
  });
  await options.beforeListen?.(app, db);
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
      await cleanup();
    },
  };
}

/** The URL of the PostgreSQL database a test server runs on (for another node's process). */
export async function testDatabaseUrl(server: TestServer): Promise<string> {
  if (server.backend !== 'postgres' || !TEST_DATABASE_URL)
    throw new Error('only a PostgreSQL test server has a database URL');
  const { rows } = await server.db.systemStatement<{ name: string }>(
    'SELECT current_database() AS name',
  );
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

/**
 * Another node's view of a test server's database: on PostgreSQL a pool of its own, so what it
 * hears comes through the database as another node's would; PGlite is one process's, so there it
 * is the same database. Close it (when it is not `server.db`) after use.
 */
export async function otherNodeDatabase(server: TestServer, poolSize = 2): Promise<Database> {
  return server.backend === 'postgres'
    ? openPostgresDatabase(await testDatabaseUrl(server), poolSize)
    : server.db;
}

/**
 * A second node beside a PostgreSQL test server: its own app, pool and embedded broker on the
 * same database (the first node's settings unless overridden). Closing it leaves the database.
 */
export async function startSecondNode(
  first: TestServer,
  config: Partial<Config> = {},
): Promise<TestServer> {
  if (first.backend !== 'postgres' || !TEST_DATABASE_URL)
    throw new Error('a second node shares a PostgreSQL database: start the first on postgres');
  const db = await otherNodeDatabase(first, 5);
  const nodeConfig = { ...first.config, ...config };
  const app = await buildApp({
    config: nodeConfig,
    db,
    logger: process.env.TEST_LOG ? { level: 'info' } : false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    backend: 'postgres',
    db,
    app,
    config: nodeConfig,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

// Tests and tools in other workspaces (e2e, bench) sign in accounts with a second factor too.
export * from './second-factor';
export { totpCode, totpStep } from '@shuili/server/modules/uaa/totp';
