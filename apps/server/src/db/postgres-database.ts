import pg from 'pg';
import {
  lockKey,
  tenantContextScript,
  type Database,
  type QueryResult,
  type Sql,
  type TenantScope,
} from './database';
import { DatabaseBusyError } from './pg-errors';
import { preparedStatementNames } from './prepared-statements';
import { SharedListenConnection } from './shared-listen-connection';

/** How long a request waits for a pooled connection, and a new connection to open. */
const CONNECT_WAIT_MS = 5_000;

/**
 * PostgreSQL through a connection pool, for DATABASE_URL and scaled-out deployments; `lane`
 * gives work that must not queue behind requests pools of its own, and the health ping has one.
 */
export async function openPostgresDatabase(url: string, poolSize = 10): Promise<Database> {
  const pools: pg.Pool[] = [];
  const newPool = (max: number) => {
    const created = new pg.Pool({
      connectionString: url,
      max,
      idleTimeoutMillis: 30_000,
      // An unreachable database answers requests (and /api/health) with an error within seconds
      // instead of hanging them; a stuck statement or transaction cannot hold a connection forever.
      connectionTimeoutMillis: CONNECT_WAIT_MS,
      options: '-c statement_timeout=30000 -c idle_in_transaction_session_timeout=60000',
    });
    // An idle client losing its connection (a database restart) must not crash the process.
    created.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    pools.push(created);
    return created;
  };
  const pool = newPool(poolSize);
  // The ping has a connection of its own: a pool busy with requests is not a database down.
  const pingPool = newPool(1);
  const lanes = new Map<string, Database>();
  const listening = new SharedListenConnection(url);
  /** When the database last answered a statement: a full pool's wait then means busy, not down. */
  let answeredAt = 0;

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

  /**
   * A client taken from the pool. The pool listens to a client's errors only while it is idle;
   * one checked out whose connection breaks between two queries (a database restart while a
   * transaction does its JavaScript part, or while withLock holds its lock) emits 'error' with
   * nobody listening, which ends the process. Listening here for the checkout, the failure
   * shows up as the next query's rejection instead, and the client is discarded on release.
   */
  const checkout = async (from: pg.Pool) => {
    const client = await from.connect().catch((error: Error) => {
      const full = from.totalCount >= (from.options.max ?? 10);
      const answering = Date.now() - answeredAt < CONNECT_WAIT_MS * 2;
      throw full && answering && /timeout exceeded/i.test(error.message)
        ? new DatabaseBusyError()
        : error;
    });
    let lost = false;
    const onError = () => (lost = true);
    client.on('error', onError);
    return {
      client,
      release: (broken = false) => {
        client.off('error', onError);
        client.release(broken || lost);
      },
    };
  };

  const run = async <T>(
    from: pg.Pool,
    work: (sql: Sql) => Promise<T>,
    scope?: TenantScope | string,
  ): Promise<T> => {
    const { client, release } = await checkout(from);
    let broken = false;
    try {
      // BEGIN and the tenant's context in one simple-protocol round trip.
      await client.query(
        `${listenScript(client)}BEGIN${scope === undefined ? '' : `; ${tenantContextScript(scope)}`}`,
      );
      answeredAt = Date.now();
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
      release(broken);
    }
  };

  const statementOn = async <R>(from: pg.Pool, text: string, params?: unknown[]) => {
    const { client, release } = await checkout(from);
    try {
      const result = await client.query(statement(text, params));
      answeredAt = Date.now();
      return result as unknown as QueryResult<R>;
    } finally {
      release();
    }
  };

  /** Transactions and statements on one pool; the rest is the database's. */
  const poolCalls = (from: pg.Pool) => ({
    system: <T>(work: (sql: Sql) => Promise<T>) => run(from, work),
    tenant: <T>(scope: TenantScope | string, work: (sql: Sql) => Promise<T>) =>
      run(from, work, scope),
    systemStatement: <R>(text: string, params?: unknown[]) => statementOn<R>(from, text, params),
  });

  const database: Database = {
    kind: 'postgres',
    ...poolCalls(pool),
    listen: async (channel, handlers) => {
      // Changes committed by other nodes arrive on the node's one listening connection, which
      // says when it is lost; those committed through this pool arrive on the committing
      // connection too.
      const onPool = (payload: string) => handlers.message(payload);
      const unlistenPool = () => {
        listeners.get(channel)?.delete(onPool);
        if (listeners.get(channel)?.size === 0) listeners.delete(channel);
      };
      const listener = await listening.listen(channel, {
        message: handlers.message,
        lost: () => {
          unlistenPool();
          handlers.lost();
        },
      });
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(onPool));
      return {
        close: async () => {
          unlistenPool();
          await listener.close();
        },
      };
    },
    withLock: async (name, work) => {
      // A session-level lock on a dedicated connection: two nodes starting together queue here.
      const { client, release } = await checkout(pool);
      try {
        await client.query('SELECT pg_advisory_lock($1::bigint)', [lockKey(name)]);
        try {
          return await run(pool, work);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey(name)]);
        }
      } finally {
        release();
      }
    },
    ping: async () => {
      await statementOn(pingPool, 'SELECT 1');
      return true;
    },
    lane: (name, size) => {
      let lane = lanes.get(name);
      if (!lane) lanes.set(name, (lane = { ...database, ...poolCalls(newPool(size)) }));
      return lane;
    },
    close: async () => {
      await listening.close();
      await Promise.all(pools.map((each) => each.end()));
    },
  };
  return database;
}
