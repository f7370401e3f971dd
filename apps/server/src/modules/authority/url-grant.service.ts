import type { Database, Sql } from '../../db/database';
import { DEFAULT_ROLE_GRANTS } from '../admin/default-menus';

/** A route that needs a URL grant, as the server registered it. */
export interface GrantedRoute {
  method: string;
  url: string;
  description: string;
}

/** How long a node trusts its cached grants when another node may have changed them. */
const CACHE_MS = 5_000;

/**
 * URL permissions (spec §6): the catalogue of every route that needs a grant, collected as the
 * routes register, written into each tenant's URL list, and the per-role check the guard asks.
 */
export class UrlGrantService {
  readonly catalogue: GrantedRoute[] = [];
  private readonly cache = new Map<string, { urls: Set<string>; at: number }>();
  /** Counts invalidations: a read that overlapped one may hold old grants and is not cached. */
  private generation = 0;

  constructor(private readonly db: Database) {}

  /** Records a route as it registers (the guard's onRoute hook). */
  register(route: GrantedRoute) {
    if (!route.method) return;
    // One permission per URL: its methods are listed together (grants are by URL).
    const known = this.catalogue.find((entry) => entry.url === route.url);
    if (!known) this.catalogue.push({ ...route });
    else if (!known.method.split(',').includes(route.method)) known.method += `,${route.method}`;
  }

  /**
   * Lists every granted route as a URL permission of the given tenants (all when none given):
   * new routes are added, existing rows keep their grants; a URL no route serves any more is
   * no longer marked as generated. A URL new to a tenant's list (every URL of a new tenant, right
   * after provisioning; a route added by an upgrade, at the first start that serves it) comes
   * with its default roles' grants (DEFAULT_ROLE_GRANTS); a URL the list holds already never
   * gets them again, so grants its administrator revoked stay revoked.
   */
  async syncCatalogue(sql: Sql, tenantIds?: string[]): Promise<void> {
    const urls = this.catalogue.map((route) => route.url);
    // xmax is 0 on a row this statement inserted, not on one it updated.
    const { rows: added } = await sql.query<{ url_id: string }>(
      `INSERT INTO sys_url (tenant_id, url, method, description, generated)
       SELECT t.id, c.url, c.method, c.description, true
         FROM tenant t, unnest($1::text[], $2::text[], $3::text[]) AS c(url, method, description)
        WHERE $4::bigint[] IS NULL OR t.id = ANY($4::bigint[])
       ON CONFLICT (tenant_id, url) DO UPDATE SET generated = true, method = EXCLUDED.method
       RETURNING CASE WHEN xmax = 0 THEN id::text END AS url_id`,
      [
        urls,
        this.catalogue.map((route) => route.method),
        this.catalogue.map((route) => route.description),
        tenantIds ?? null,
      ],
    );
    await sql.query(
      `UPDATE sys_url SET generated = false WHERE generated AND NOT (url = ANY($1::text[]))
         AND ($2::bigint[] IS NULL OR tenant_id = ANY($2::bigint[]))`,
      [urls, tenantIds ?? null],
    );
    const fresh = added.flatMap((row) => (row.url_id ? [row.url_id] : []));
    if (fresh.length > 0) await this.grantDefaults(sql, fresh);
    this.invalidate();
  }

  /** Grants the default roles their default URLs among the given (newly listed) URL rows. */
  private async grantDefaults(sql: Sql, urlIds: string[]): Promise<void> {
    const pairs = Object.entries(DEFAULT_ROLE_GRANTS).flatMap(([roleCode, grants]) =>
      grants.urls.map((url) => [roleCode, url] as const),
    );
    await sql.query(
      `INSERT INTO sys_role_url (tenant_id, role_id, url_id)
       SELECT r.tenant_id, r.id, u.id
         FROM unnest($2::text[], $3::text[]) AS d(role_code, url)
         JOIN sys_url u ON u.url = d.url AND u.id = ANY($1::bigint[])
         JOIN sys_role r ON r.role_code = d.role_code AND r.tenant_id = u.tenant_id
       ON CONFLICT DO NOTHING`,
      [urlIds, pairs.map(([roleCode]) => roleCode), pairs.map(([, url]) => url)],
    );
  }

  /** Whether the role (by code, enabled) holds the URL in the tenant. */
  async allows(tenantId: string, roleCode: string, url: string): Promise<boolean> {
    const key = `${tenantId}|${roleCode}`;
    let entry = this.cache.get(key);
    if (!entry || Date.now() - entry.at > CACHE_MS) {
      const readFrom = this.generation;
      const { rows } = await this.db.tenant(tenantId, (sql) =>
        sql.query<{ url: string }>(
          `SELECT u.url FROM sys_role_url ru
             JOIN sys_role r ON r.id = ru.role_id AND r.status = 1
             JOIN sys_url u ON u.id = ru.url_id
            WHERE r.role_code = $1`,
          [roleCode],
        ),
      );
      entry = { urls: new Set(rows.map((row) => row.url)), at: Date.now() };
      if (readFrom === this.generation) this.cache.set(key, entry);
    }
    return entry.urls.has(url);
  }

  /** Drops cached grants after a change of roles, URLs or grants on this node. */
  invalidate() {
    this.generation += 1;
    this.cache.clear();
  }
}
