import { ROLE_ADMIN } from '@shuili/contract';
import type { Sql } from '../db/database';

/**
 * Data permissions (spec §6): per role and menu, the fields the role may see. No rule means
 * every field; ROLE_ADMIN always sees every field. Read in the tenant's transaction (RLS).
 */
export class DataFieldService {
  async visible(
    sql: Sql,
    role: string,
    menuCode: string,
  ): Promise<ReadonlySet<string> | undefined> {
    if (role === ROLE_ADMIN) return undefined;
    const { rows } = await sql.query<{ data_fields: string }>(
      'SELECT data_fields FROM sys_data_permission WHERE role_code = $1 AND menu_code = $2',
      [role, menuCode],
    );
    if (rows.length === 0) return undefined;
    return new Set(
      rows.flatMap((row) =>
        row.data_fields
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    );
  }
}
