import type { Database, Sql } from '../../../db/database';

/** sys_param key of a tenant's telemetry retention in days. */
export const RETENTION_PARAM = 'iot.retentionDays';
export const DEFAULT_RETENTION_DAYS = 365;
export const MAX_RETENTION_DAYS = 3650;
/** sys_param key of the tenant's time zone (IANA name): days and months of reports. */
export const TIME_ZONE_PARAM = 'timeZone';
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** A stored retention as a whole number of days; anything unusable means the default. */
export function retentionDaysOf(value: string | null | undefined): number {
  const days = Number(value?.trim());
  return Number.isInteger(days) && days >= 1 && days <= MAX_RETENTION_DAYS
    ? days
    : DEFAULT_RETENTION_DAYS;
}

export function timeZoneOf(value: string | null | undefined): string {
  const zone = value?.trim();
  if (!zone) return DEFAULT_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** The tenant's time zone, read in its own context (RLS). */
export async function tenantTimeZone(sql: Sql): Promise<string> {
  const { rows } = await sql.query<{ param_value: string | null }>(
    'SELECT param_value FROM sys_param WHERE param_key = $1 LIMIT 1',
    [TIME_ZONE_PARAM],
  );
  return timeZoneOf(rows[0]?.param_value);
}

/**
 * Every tenant's retention, read across tenants and kept for a minute: ingestion asks for it on
 * every uplink (the accepted window), the sweeper once an hour.
 */
export class RetentionSettings {
  private days = new Map<string, number>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly ttlMs = 60_000,
  ) {}

  async retentionDays(tenantId: string): Promise<number> {
    await this.fresh();
    return this.days.get(tenantId) ?? DEFAULT_RETENTION_DAYS;
  }

  /** Every tenant's retention, and the longest any tenant keeps. */
  async all(): Promise<{ byTenant: ReadonlyMap<string, number>; longest: number }> {
    await this.fresh(true);
    return {
      byTenant: this.days,
      longest: this.days.size ? Math.max(...this.days.values()) : DEFAULT_RETENTION_DAYS,
    };
  }

  private async fresh(force = false): Promise<void> {
    if (!force && Date.now() - this.loadedAt < this.ttlMs) return;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  private async load(): Promise<void> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{ tenant_id: string; param_value: string | null }>(
        `SELECT t.id::text AS tenant_id, p.param_value
           FROM tenant t LEFT JOIN sys_param p ON p.tenant_id = t.id AND p.param_key = $1`,
        [RETENTION_PARAM],
      ),
    );
    this.days = new Map(rows.map((row) => [row.tenant_id, retentionDaysOf(row.param_value)]));
    this.loadedAt = Date.now();
  }
}
