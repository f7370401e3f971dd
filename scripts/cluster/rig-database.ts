// The rig's database: a fresh one on the machine's PostgreSQL, copied from the migrated template
// the tests use (so the first node's migrate() finds the schema in place), dropped at the end.
import crypto from 'node:crypto';
import pg from 'pg';
import { migratedPostgresTemplate } from '@shuili/test-support/migrated-template';

/** The machine's PostgreSQL (CI exports TEST_DATABASE_URL when it runs). */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Why the machine's PostgreSQL cannot be used, or undefined. */
export async function postgresUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: ADMIN_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${ADMIN_DATABASE_URL} is not available (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

async function admin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export async function createRigDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shuili_rig_${crypto.randomBytes(6).toString('hex')}`;
  const template = await migratedPostgresTemplate(ADMIN_DATABASE_URL);
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
