import pg from 'pg';
import { lockKey, tenantContextScript, type Database, type Sql } from './database';
import { preparedStatementNames } from './prepared-statements';

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

  const nameOf = preparedStatementNames();
  const statement = (text: string, params: unknown[] | undefined) => {
    const name = nameOf(text);
    return name ? { name, text, values: params } : { text, values: params };
  };

  // Channels listened to (see listen): every pooled connection listens as well, from its next
  // transaction on, so a change committed through this pool reaches this node's listeners
  // before its COMMIT answers (PostgreSQL gives a session its own notifications first).
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const joined = new WeakMap<pg.PoolClient, Set<string>>();
  const dispatch = (message: pg.Notification) => {
    for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
  };
  const listenScript = (client: pg.PoolClient): string => {
    if (listeners.size === 0) return '';
    let channels = joined.get(client);
    if (!channels) {
      joined.set(client, (channels = new Set()));
      client.on('notification', dispatch);
    }
    const missing = [...listeners.keys()].filter((channel) => !channels.has(channel));
    for (const channel of missing) channels.add(channel);
    return missing.map((channel) => `LISTEN ${channel}; `).join('');
  };

  const run = async <T>(work: (sql: Sql) => Promise<T>, tenantId?: string): Promise<T> => {
    const client = await pool.connect();
    let broken = false;
    try {
      // BEGIN and the tenant's context in one simple-protocol round trip.
      await client.query(
        `${listenScript(client)}BEGIN${tenantId === undefined ? '' : `; ${tenantContextScript(tenantId)}`}`,
      );
      const sql: Sql = {
        query: (text, params) => client.query(statement(text, params)) as never,
        exec: async (script) => {
          await client.query(script);
        },
      };
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
    systemStatement: (text, params) => pool.query(statement(text, params)) as never,
    listen: async (channel, handlers) => {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      // Changes committed by other nodes arrive on a connection of its own, which says when it
      // is lost; those committed through this pool arrive on the committing connection too.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      const onPool = (payload: string) => handlers.message(payload);
      let open = true;
      const unlistenPool = () => {
        listeners.get(channel)?.delete(onPool);
        if (listeners.get(channel)?.size === 0) listeners.delete(channel);
      };
      const lose = () => {
        if (!open) return;
        open = false;
        unlistenPool();
        handlers.lost();
        client.end().catch(() => {});
      };
      client.on('error', lose);
      client.on('end', lose);
      client.on('notification', (message) => {
        if (message.channel === channel) handlers.message(message.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        listeners.set(channel, (listeners.get(channel) ?? new Set()).add(onPool));
        // A forgotten listener must not keep the process alive after everything else closed.
        (
          client as unknown as { connection?: { stream?: { unref?(): void } } }
        ).connection?.stream?.unref?.();
      } catch (error) {
        open = false;
        await client.end().catch(() => {});
        throw error;
      }
      return {
        close: async () => {
          open = false;
          unlistenPool();
          await client.end().catch(() => {});
        },
      };
    },
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
