/** What a query answers: its rows, typed by the caller. */
export interface QueryResult<R> {
  rows: R[];
}

/** A connection or transaction that runs parameterised SQL. */
export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/**
 * The one database interface the server uses, whether PGlite or PostgreSQL is behind it.
 * Every statement runs inside a transaction opened by `system` or `tenant`.
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs as the schema owner, which row-level security does not restrict: only for work that
   * spans tenants by nature (sign-in lookups, migrations, seeding, tenant provisioning).
   */
  system<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Runs as the restricted application role with `app.tenant_id` set: RLS confines every row. */
  tenant<T>(tenantId: string, work: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs one statement as the schema owner in its own implicit transaction: for a single read
   * that every request makes (the session check), one round trip where `system` takes three.
   */
  systemStatement<R = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<QueryResult<R>>;
  /**
   * Listens to a notification channel (PostgreSQL LISTEN) on a connection of its own: `message`
   * gets each payload; `lost` says notifications may have been missed (the connection broke,
   * and the listener is closed). Answers the listener, to close.
   */
  listen(
    channel: string,
    handlers: { message(payload: string): void; lost(): void },
  ): Promise<{ close(): Promise<void> }>;
  /** Runs work while holding a cluster-wide advisory lock (migrations and seeding). */
  withLock<T>(key: string, work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Answers whether the database is reachable now. */
  ping(): Promise<boolean>;
  /**
   * This database on connections reserved for one kind of work (PostgreSQL: a pool of `size`
   * of its own, made at the first call of a name), so that work never waits behind requests for
   * a connection: storing the telemetry devices wait to have acknowledged. PGlite has one
   * connection, so its lane is itself. Closing the database closes its lanes.
   */
  lane(name: string, size: number): Database;
  close(): Promise<void>;
}

/** The role whose rows row-level security restricts; created by the migrations. */
export const APP_ROLE = 'shuili_app';

/**
 * The script that switches a transaction into one tenant's context (RLS policies read
 * app.tenant_id). One script without parameters, so it travels with BEGIN in one round trip;
 * the id is checked to be a number, so inlining it cannot inject anything.
 */
export function tenantContextScript(tenantId: string): string {
  if (!/^\d{1,19}$/.test(tenantId)) throw new Error(`tenant id must be numeric, got ${tenantId}`);
  return `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', '${tenantId}', true)`;
}

/** A stable 64-bit advisory lock key from a name (the same on every node). */
export function lockKey(name: string): string {
  let hash = 0n;
  for (const char of name)
    hash = (hash * 31n + BigInt(char.codePointAt(0) ?? 0)) & 0x7fffffffffffffffn;
  return hash.toString();
}
