import { AnnouncedCache, AnnouncedChecks } from '../../db/announced-cache';
import type { Database, DeviceScope } from '../../db/database';

/** The channel on which the database announces changes of access (db/access.sql). */
export const ACCESS_CHANNEL = 'shuili_access';

/** How long a user's access is trusted without reading it again (as sessions). */
export const ACCESS_CHECK_TTL_MS = 5_000;
const CAPACITY = 10_000;

/**
 * What a signed-in user may do now, read from live state (never from their token). Its device
 * scope: the zones the user is confined to with every zone below them, and the projects bound
 * to them; each null when none is assigned (the whole tenant, as spec §7's administrators).
 */
export interface LiveAccess extends DeviceScope {
  tenantId: string;
  /** The tenant is enabled and inside its period. */
  tenantActive: boolean;
  /** The account is enabled. */
  userActive: boolean;
  /** Enabled roles the user holds, ROLE_ADMIN first (the default active role). */
  roles: string[];
}

/** A change of access the database announced (db/access.sql). */
export type AccessChange =
  /** One user's roles, zones or projects. */
  | { kind: 'user'; userId: string }
  /** A tenant's roles, grants, zone tree or status: every user of it. */
  | { kind: 'tenant'; tenantId: string }
  /** Where a tenant's devices are, zones and projects (confined live filters). */
  | { kind: 'devices'; tenantId: string }
  /** Announcements may have been missed: anything may have changed. */
  | { kind: 'everything' };

/** An announcement's payload: 'u:{userId}', 't:{tenantId}' or 'd:{tenantId}' (db/access.sql). */
export function parseAccessChange(payload: string): AccessChange {
  const [kind, id] = payload.split(':');
  if (kind === 'u' && id) return { kind: 'user', userId: id };
  if (kind === 't' && id) return { kind: 'tenant', tenantId: id };
  if (kind === 'd' && id) return { kind: 'devices', tenantId: id };
  return { kind: 'everything' };
}

const LIVE_ACCESS = `
  SELECT shuili_tenant_active(t.status, t.start_time, t.end_time) AS tenant_active,
         (extract(epoch FROM t.end_time - now()) * 1000)::float8 AS tenant_ends_in_ms,
         u.status = 1 AS user_active,
         coalesce((SELECT array_agg(r.role_code ORDER BY (r.role_code = 'ROLE_ADMIN') DESC, r.role_code)
                     FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                    WHERE ur.user_id = u.id AND r.status = 1), '{}') AS roles,
         shuili_user_zones(u.id)::text[] AS zone_ids,
         shuili_user_projects(u.id)::text[] AS project_ids
    FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
   WHERE u.id = $1 AND u.tenant_id = $2`;

/**
 * The caller's live roles, device scope and tenant state, for every request and every browser
 * MQTT connection: an administrator's change (a role taken away, disabled or deleted, zones or
 * projects reassigned, a tenant suspended) holds at the next request on every node. Remembered
 * like sessions: a few seconds, forgotten at once when the database announces a change.
 */
export class AccessChecks extends AnnouncedChecks<LiveAccess> {
  protected readonly cache: AnnouncedCache<LiveAccess>;

  constructor(private readonly db: Database) {
    super();
    this.cache = new AnnouncedCache<LiveAccess>(db, {
      channel: ACCESS_CHANNEL,
      ttlMs: ACCESS_CHECK_TTL_MS,
      capacity: CAPACITY,
      forgets: (payload, userId, access) => {
        const change = parseAccessChange(payload);
        if (change.kind === 'user') return change.userId === userId;
        if (change.kind === 'tenant') return change.tenantId === access.tenantId;
        return change.kind === 'everything';
      },
    });
  }

  /**
   * A tenant's period ran out: nothing in the database announces that, so this node tells its
   * cache and watchers as if it had been announced (TenantSuspension notices it).
   */
  tenantLapsed(tenantId: string): void {
    this.cache.announced(`t:${tenantId}`);
  }

  /** The user's access now; undefined when the user (or their tenant) no longer exists. */
  async of(userId: string, tenantId: string): Promise<LiveAccess | undefined> {
    if (!/^\d{1,19}$/.test(userId) || !/^\d{1,19}$/.test(tenantId)) return undefined;
    const access = await this.cache.get(userId, async () => {
      const { rows } = await this.db.systemStatement<{
        tenant_active: boolean;
        tenant_ends_in_ms: number | null;
        user_active: boolean;
        roles: string[];
        zone_ids: string[] | null;
        project_ids: string[] | null;
      }>(LIVE_ACCESS, [userId, tenantId]);
      const row = rows[0];
      if (!row) return { value: NO_ACCESS, keepMs: 0 };
      const value: LiveAccess = {
        tenantId,
        tenantActive: row.tenant_active,
        userActive: row.user_active,
        roles: row.roles,
        zoneIds: row.zone_ids,
        projectIds: row.project_ids,
      };
      // Never trusted past the tenant's end: its period runs out without any announcement.
      const keepMs = row.tenant_ends_in_ms ?? Number.POSITIVE_INFINITY;
      return { value, keepMs: value.tenantActive ? keepMs : 0 };
    });
    return access === NO_ACCESS || access.tenantId !== tenantId ? undefined : access;
  }
}

const NO_ACCESS: LiveAccess = {
  tenantId: '',
  tenantActive: false,
  userActive: false,
  roles: [],
  zoneIds: null,
  projectIds: null,
};
