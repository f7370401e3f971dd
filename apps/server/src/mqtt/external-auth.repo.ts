import type { Sql } from '../db/database';

/** A signed-in person as the external broker's ACL hook needs them. */
export interface BrowserUser {
  tenantId: string;
  userId: string;
}

/** SQL of the external broker's auth hooks (system context: the broker names no tenant). */
export const externalAuthRepo = {
  /** An enabled user of an enabled tenant by account name (unique per tenant, any case). */
  async userByAccount(
    sql: Sql,
    tenantCode: string,
    account: string,
  ): Promise<BrowserUser | undefined> {
    const { rows } = await sql.query<{ tenant_id: string; user_id: string }>(
      `SELECT u.tenant_id::text AS tenant_id, u.id::text AS user_id
         FROM tenant t JOIN sys_user u ON u.tenant_id = t.id
        WHERE t.tenant_code = $1 AND lower(u.username) = lower($2)
          AND t.status = 1 AND u.status = 1`,
      [tenantCode, account],
    );
    const row = rows[0];
    return row && { tenantId: row.tenant_id, userId: row.user_id };
  },
};
