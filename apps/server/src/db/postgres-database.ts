import pg from 'pg';
import { enterTenant, lockKey, type Database, type Sql } from './database';

/** PostgreSQL through a connection pool, for DATABASE_URL and scaled-out deployments. */
export async function openPostgresDatabase(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    // An unreachable database answers requests (and /api/health) with an error within seconds
    // instead of hanging them; a stuck statement or transaction cannot hold a connection forever.
    connectionTimeoutMillis: 5_000,
    options: '-c statement_timeout=30000 -c idle_in_transaction_session_timeout=60000',
  });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));

  const run = async <T>(work: (sql: Sql) => Promise<T>, tenantId?: string): Promise<T> => {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const sql: Sql = {
        query: (text, params) => client.query(text, params as unknown[]) as never,
        exec: async (script) => {
          await client.query(script);
        },
      };
      if (tenantId !== undefined) await enterTenant(sql, tenantId);
      const result = await work(sql);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  };

  return {
    kind: 'postgres',
    system: (work) => run(work),
    tenant: (tenantId, work) => run(work, tenantId),
    withLock: async (name, work) => {
      // A session-level lock on a dedicated connection: two nodes starting together queue here.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1::bigint)', [lockKey(name)]);
        try {
          return await run(work);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey(name)]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await pool.query('SELECT 1');
      return true;
    },
    close: () => pool.end(),
  };
}
