import type { Sql } from '../../db/database';
import { PG, pgErrorOf } from '../../db/pg-errors';
import { AppError } from '../../http/app-error';

export interface LinkSet {
  table: string;
  /** The column held fixed (the role whose menus are replaced). */
  fixedColumn: string;
  fixedId: string;
  /** The column whose values are replaced by the list. */
  listColumn: string;
  listIds: string[];
  /** The field to name when a listed id is not the tenant's. */
  field: string;
  /** Narrows what is replaced (one menu's buttons), as SQL on the link row `l` with $3. */
  only?: { condition: string; value: string };
}

/**
 * Replaces one side of a many-to-many grant in the caller's tenant transaction. The link
 * tables' (tenant_id, id) keys refuse an id of another tenant, answered as 400 on the field.
 */
export async function replaceLinkSet(sql: Sql, tenantId: string, link: LinkSet): Promise<void> {
  const onlyCondition = link.only ? ` AND ${link.only.condition}` : '';
  try {
    await sql.query(
      `DELETE FROM ${link.table} l WHERE l.${link.fixedColumn} = $1${onlyCondition.replace('$3', '$2')}`,
      link.only ? [link.fixedId, link.only.value] : [link.fixedId],
    );
    if (link.listIds.length === 0) return;
    await sql.query(
      `INSERT INTO ${link.table} (tenant_id, ${link.fixedColumn}, ${link.listColumn})
       SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
      [tenantId, link.fixedId, [...new Set(link.listIds)]],
    );
  } catch (error) {
    if (pgErrorOf(error)?.code === PG.foreignKeyViolation) {
      throw new AppError(400, 'validation.refMissing', {
        fields: [{ field: link.field, key: 'validation.refMissing' }],
      });
    }
    throw error;
  }
}

/** Refuses an id that is not a row of the tenant (RLS hides other tenants' rows). */
export async function requireRow(
  sql: Sql,
  table: string,
  id: string,
  field: string,
): Promise<void> {
  const { rows } = await sql.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
  if (rows.length === 0) {
    throw new AppError(404, 'error.recordNotFound', {
      fields: [{ field, key: 'error.recordNotFound' }],
    });
  }
}
