import type { Database } from '../db/database';

/** Answers whether a tenant is the platform tenant; a tenant's platform flag never changes. */
export class PlatformTenants {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly db: Database) {}

  async isPlatform(tenantId: string): Promise<boolean> {
    const cached = this.known.get(tenantId);
    if (cached !== undefined) return cached;
    const { rows } = await this.db.system((sql) =>
      sql.query<{ is_platform: boolean }>('SELECT is_platform FROM tenant WHERE id = $1', [
        tenantId,
      ]),
    );
    const answer = rows[0]?.is_platform ?? false;
    this.known.set(tenantId, answer);
    return answer;
  }
}
