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
  /**
   * Runs as the restricted application role with `app.tenant_id` set: RLS confines every row.
   * Given a scope with zones or projects (a confined caller: the request's AuthContext), devices
   * and everything keyed by a device are confined to them too (tenancy.sql).
   */
  tenant<T>(scope: TenantScope | string, work: (sql: Sql) => Promise<T>): Promise<T>;
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

/**
 * The devices a caller is confined to, each way on its own (null: not confined that way), and
 * both at once when both are given: a device must be in one of the zones AND one of the projects.
 * Everything keyed by a device follows its device (tenancy.sql `device_scope`).
 */
export interface DeviceScope {
  /** The caller's zones with every zone below them. */
  zoneIds: readonly string[] | null;
  /** The IoT projects the caller is bound to (sys_user_project). */
  projectIds: readonly string[] | null;
}

/** Whether a scope confines its devices at all (else: every device of the tenant). */
export function confinesDevices(scope: Partial<DeviceScope>): boolean {
  return (scope.zoneIds ?? null) !== null || (scope.projectIds ?? null) !== null;
}

/**
 * Whose data a tenant transaction may see: a tenant, and for a confined caller its device scope
 * (absent or null: the whole tenant).
 */
export interface TenantScope extends Partial<DeviceScope> {
  tenantId: string;
}

/** The tenant of a scope given either way. */
export function tenantIdOf(scope: TenantScope | string): string {
  return typeof scope === 'string' ? scope : scope.tenantId;
}

/** The role whose rows row-level security restricts; created by the migrations. */
export const APP_ROLE = 'shuili_app';

const NUMERIC_ID = /^\d{1,19}$/;

/** One way of confinement as its setting: '' when not confined, the ids comma-joined else. */
function scopeSetting(ids: readonly string[] | null | undefined, what: string): string {
  if (ids === null || ids === undefined) return '';
  if (ids.some((id) => !NUMERIC_ID.test(id))) throw new Error(`${what} ids must be numeric`);
  // Confined to an empty list sees no device: '0' is an id nothing has.
  return ids.length > 0 ? ids.join(',') : '0';
}

/**
 * The script that switches a transaction into one tenant's context (RLS policies read
 * app.tenant_id, and app.zone_ids and app.project_ids for a confined caller). One script
 * without parameters, so it travels with BEGIN in one round trip; every id is checked to be a
 * number, so inlining them cannot inject anything.
 */
export function tenantContextScript(scope: TenantScope | string): string {
  const tenantId = tenantIdOf(scope);
  const devices: Partial<DeviceScope> = typeof scope === 'string' ? {} : scope;
  if (!NUMERIC_ID.test(tenantId)) throw new Error(`tenant id must be numeric, got ${tenantId}`);
  const zones = scopeSetting(devices.zoneIds, 'zone');
  const projects = scopeSetting(devices.projectIds, 'project');
  return `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.tenant_id', '${tenantId}', true), set_config('app.zone_ids', '${zones}', true), set_config('app.project_ids', '${projects}', true)`;
}

/** A stable 64-bit advisory lock key from a name (the same on every node). */
export function lockKey(name: string): string {
  let hash = 0n;
  for (const char of name)
    hash = (hash * 31n + BigInt(char.codePointAt(0) ?? 0)) & 0x7fffffffffffffffn;
  return hash.toString();
}
