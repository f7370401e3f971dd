import type { Sql } from '../../db/database';
import type { Row } from '../../entity/entity-repo';
import { AppError, type FieldProblem } from '../../http/app-error';

/**
 * The stored row (columns as field names) merged with a (partial) update's values: what an
 * entity hook judges a create or an update by.
 */
export async function mergedRow(
  sql: Sql,
  table: string,
  id: string | undefined,
  values: Row,
): Promise<Row> {
  const current: Row = {};
  if (id) {
    const { rows } = await sql.query<Row>(`SELECT * FROM ${table} WHERE id = $1`, [id]);
    for (const [column, value] of Object.entries(rows[0] ?? {}))
      current[column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  for (const [name, value] of Object.entries(values))
    if (value !== undefined) current[name] = value;
  return current;
}

/** A 400 naming every field a hook found wrong; nothing when there is none. */
export function refuseProblems(problems: FieldProblem[]): void {
  if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
}
