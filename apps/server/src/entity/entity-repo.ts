import { columnOf, inListValues, type EntityDef } from '@shuili/contract';
import type { Sql } from '../db/database';
import { storedFields } from './entity-ddl';
import { keyColumn, likePattern, Params, q, rowSelect, treeParentColumn } from './entity-sql';

export type Row = Record<string, unknown>;

export interface ListFilter {
  /** Declared search fields' values, already checked against their kinds. */
  filters: Record<string, string>;
  /** Tree entities: '' for roots, else the parent's key. */
  parentId?: string;
  /** Rows of these keys only (the declared key: id, or a code). */
  keys?: string[];
  /** Rows of these ids only (re-reads after writes), whatever the declared key. */
  ids?: string[];
}

export interface ListPage extends ListFilter {
  sort: string;
  order: 'ascend' | 'descend';
  limit: number;
  offset: number;
}

const NEVER_NULL = new Set(['id', 'created_at', 'updated_at']);

function sortColumn(entity: EntityDef, sort: string): string {
  if (sort === 'id') return 'id';
  if (sort === 'createdAt') return 'created_at';
  if (sort === 'updatedAt') return 'updated_at';
  return columnOf(sort, entity.fields[sort]!);
}

function whereClause(entity: EntityDef, filter: ListFilter, params: Params): string {
  const conditions: string[] = [];
  for (const [name, value] of Object.entries(filter.filters)) {
    const rangeBound = /^(.*)(From|To)$/.exec(name);
    const field = entity.fields[name] ?? (rangeBound ? entity.fields[rangeBound[1]!] : undefined);
    if (!field) continue;
    if (field.link) {
      const link = field.link;
      conditions.push(
        `EXISTS (SELECT 1 FROM ${q(link.linkTable)} l WHERE l.${q(link.fromColumn)} = t.id AND l.${q(link.toColumn)} = ${params.add(value)})`,
      );
      continue;
    }
    if (field.search === 'in') {
      // One of a comma list (validated by querySchemaOf): a screen's fixed filter over several
      // values, on a computed value or a column alike.
      const target = field.computed ? `(${field.computed})` : `t.${q(columnOf(name, field))}`;
      const type = field.sql === 'bigint' ? 'bigint[]' : 'text[]';
      conditions.push(`${target} = ANY(${params.add(inListValues(value))}::${type})`);
      continue;
    }
    if (field.computed && field.search === 'like') {
      conditions.push(`(${field.computed}) ILIKE ${params.add(likePattern(value))}`);
      continue;
    }
    if (field.computed) {
      conditions.push(`(${field.computed}) = ${params.add(value)}`);
      continue;
    }
    if (rangeBound && !entity.fields[name]) {
      const column = q(columnOf(rangeBound[1]!, field));
      conditions.push(`t.${column} ${rangeBound[2] === 'From' ? '>=' : '<='} ${params.add(value)}`);
    } else if (field.search === 'like') {
      conditions.push(`t.${q(columnOf(name, field))} ILIKE ${params.add(likePattern(value))}`);
    } else {
      conditions.push(`t.${q(columnOf(name, field))} = ${params.add(value)}`);
    }
  }
  const parent = treeParentColumn(entity);
  if (parent && filter.parentId !== undefined) {
    conditions.push(
      filter.parentId === ''
        ? `t.${q(parent)} IS NULL`
        : `t.${q(parent)} = ${params.add(filter.parentId)}`,
    );
  }
  if (filter.keys) conditions.push(keysCondition(entity, params.add(filter.keys)));
  if (filter.ids) conditions.push(`t.id = ANY(${params.add(filter.ids)}::bigint[])`);
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** Rows whose key is one of a parameter's values (ids are numeric, so typed for the index). */
function keysCondition(entity: EntityDef, placeholder: string): string {
  return entity.key === 'id'
    ? `t.id = ANY(${placeholder}::bigint[])`
    : `t.${q(keyColumn(entity))} = ANY(${placeholder}::text[])`;
}

/** The column that carries the filter's total on each row of a page (removed before answering). */
const TOTAL = '__total';

/** The SQL of one sorted page of rows, with their labels (and the filter's total when asked). */
function pageSql(
  entity: EntityDef,
  page: ListPage,
  params: Params,
  options: { withLinks: boolean; withTotal?: boolean },
): string {
  const where = whereClause(entity, page, params);
  const direction = page.order === 'ascend' ? 'ASC' : 'DESC';
  const column = sortColumn(entity, page.sort);
  // A computed value (a program's page count) sorts by its expression: it has no column.
  const computed = entity.fields[page.sort]?.computed;
  const target = computed ? `(${computed})` : `t.${q(column)}`;
  // Never-null columns get no NULLS clause: "id DESC NULLS LAST" cannot walk the primary key
  // backwards and would sort the whole tenant for every page.
  const nulls = !computed && NEVER_NULL.has(column) ? '' : ' NULLS LAST';
  const order = `ORDER BY ${target} ${direction}${nulls}, t.id ${direction}`;
  // Last in the select list, so removing it from a parsed row is V8's cheap case.
  const total = options.withTotal
    ? `,\n       (SELECT count(*)::int FROM ${q(entity.table)} t ${where}) AS ${q(TOTAL)}`
    : '';
  // The list call's page size is written into the text and a first page has no OFFSET: a
  // LIMIT parameter makes PostgreSQL plan a prepared statement afresh on every call (its
  // generic plan, costed for an unknown limit, never wins), and planning costs more than
  // running. Page sizes are few, so the texts stay few; other pages keep their parameters.
  const limit = options.withTotal ? String(Math.trunc(page.limit)) : params.add(page.limit);
  const offset = options.withTotal && page.offset === 0 ? '' : ` OFFSET ${params.add(page.offset)}`;
  // The page is cut first and labelled after: PostgreSQL computes the select list for rows
  // OFFSET skips too, so labelling in one query costs a late page thousands of sub-queries.
  return `SELECT ${rowSelect(entity, options)}${total}
         FROM (SELECT t.* FROM ${q(entity.table)} t ${where} ${order}
               LIMIT ${limit}${offset}) t
        ${order}`;
}

/** The generic SQL of every entity, built from its declaration; runs in the caller's transaction. */
export const entityRepo = {
  async count(sql: Sql, entity: EntityDef, filter: ListFilter): Promise<number> {
    const params = new Params();
    const { rows } = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${q(entity.table)} t ${whereClause(entity, filter, params)}`,
      params.values,
    );
    return rows[0]!.total;
  },

  async list(sql: Sql, entity: EntityDef, page: ListPage, withLinks = false): Promise<Row[]> {
    const params = new Params();
    const { rows } = await sql.query<Row>(
      pageSql(entity, page, params, { withLinks }),
      params.values,
    );
    return rows;
  },

  /**
   * One page of the list and the total of its filter, in one statement: the count rides on
   * every row of the page as an uncorrelated sub-query (run once). Only a page past the end,
   * which has no row to carry it, costs a second statement.
   */
  async page(sql: Sql, entity: EntityDef, page: ListPage): Promise<{ rows: Row[]; total: number }> {
    const params = new Params();
    const found = await sql.query<Row & { [TOTAL]: number }>(
      pageSql(entity, page, params, { withLinks: false, withTotal: true }),
      params.values,
    );
    if (found.rows.length === 0)
      return { rows: [], total: page.offset === 0 ? 0 : await entityRepo.count(sql, entity, page) };
    const total = found.rows[0]![TOTAL];
    for (const row of found.rows) delete (row as Row)[TOTAL];
    return { rows: found.rows, total };
  },

  async byIds(sql: Sql, entity: EntityDef, ids: string[]): Promise<Row[]> {
    return entityRepo.list(
      sql,
      entity,
      { filters: {}, ids, sort: 'id', order: 'ascend', limit: ids.length, offset: 0 },
      true,
    );
  },

  async byKeys(sql: Sql, entity: EntityDef, keys: string[]): Promise<Row[]> {
    return entityRepo.list(
      sql,
      entity,
      { filters: {}, keys, sort: 'id', order: 'ascend', limit: keys.length, offset: 0 },
      true,
    );
  },

  /** Inserts the stored columns present in `values`; answers the new id. */
  async insert(sql: Sql, entity: EntityDef, values: Row, extra: Row): Promise<string> {
    const params = new Params();
    const columns: string[] = [];
    const placeholders: string[] = [];
    for (const [name, field, column] of storedFields(entity)) {
      if (!(name in values)) continue;
      // A blank (null) field that has a default gets the default, as if it were left out: its
      // column may be NOT NULL.
      if (values[name] === null && field.defaultValue !== undefined) continue;
      columns.push(q(column));
      placeholders.push(params.add(values[name]));
    }
    for (const [column, value] of Object.entries(extra)) {
      columns.push(q(column));
      placeholders.push(params.add(value));
    }
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO ${q(entity.table)} (${columns.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id::text AS id`,
      params.values,
    );
    return rows[0]!.id;
  },

  /** Updates the stored columns present in `values`; answers the id, or undefined when absent. */
  async update(
    sql: Sql,
    entity: EntityDef,
    id: string,
    values: Row,
    extra: Row,
  ): Promise<string | undefined> {
    const params = new Params();
    const sets = ['updated_at = now()'];
    for (const [name, field, column] of storedFields(entity)) {
      if (!(name in values)) continue;
      // Blank (null) on a field with a default is the default, as on insert: the column may be
      // NOT NULL.
      const value = values[name] === null ? (field.defaultValue ?? null) : values[name];
      sets.push(`${q(column)} = ${params.add(value)}`);
    }
    for (const [column, value] of Object.entries(extra))
      sets.push(`${q(column)} = ${params.add(value)}`);
    const { rows } = await sql.query<{ id: string }>(
      `UPDATE ${q(entity.table)} SET ${sets.join(', ')} WHERE id = ${params.add(id)} RETURNING id::text AS id`,
      params.values,
    );
    return rows[0]?.id;
  },

  /** Replaces the links of a many-to-many field. */
  async setLinks(
    sql: Sql,
    entity: EntityDef,
    field: string,
    id: string,
    targetIds: string[],
    tenantId: string | null,
  ) {
    const link = entity.fields[field]!.link!;
    await sql.query(`DELETE FROM ${q(link.linkTable)} WHERE ${q(link.fromColumn)} = $1`, [id]);
    if (targetIds.length === 0) return;
    await sql.query(
      `INSERT INTO ${q(link.linkTable)} (tenant_id, ${q(link.fromColumn)}, ${q(link.toColumn)})
       SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING`,
      [tenantId, id, [...new Set(targetIds)]],
    );
  },

  /** Deletes rows by key; answers the ids deleted. */
  async remove(sql: Sql, entity: EntityDef, keys: string[]): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `DELETE FROM ${q(entity.table)} t WHERE ${keysCondition(entity, '$1')} RETURNING id::text AS id`,
      [keys],
    );
    return rows.map((row) => row.id);
  },

  async setStatus(
    sql: Sql,
    entity: EntityDef,
    ids: string[],
    status: number,
    userId: string | null,
  ): Promise<number> {
    const column = columnOf(statusField(entity)!, entity.fields[statusField(entity)!]!);
    const { rows } = await sql.query<{ id: string }>(
      `UPDATE ${q(entity.table)} SET ${q(column)} = $1, updated_at = now(), updated_by = $3 WHERE id = ANY($2::bigint[]) RETURNING id::text AS id`,
      [status, ids, userId],
    );
    return rows.length;
  },

  /** Whether making `parentId` the parent of `id` would close a loop in the tree. */
  async wouldCycle(sql: Sql, entity: EntityDef, id: string, parentId: string): Promise<boolean> {
    const parent = treeParentColumn(entity)!;
    const { rows } = await sql.query<{ hit: boolean }>(
      `WITH RECURSIVE up(id, depth) AS (
         SELECT $2::bigint, 0
         UNION ALL
         SELECT t.${q(parent)}, up.depth + 1 FROM ${q(entity.table)} t JOIN up ON t.id = up.id
          WHERE t.${q(parent)} IS NOT NULL AND up.depth < 1000)
       SELECT EXISTS (SELECT 1 FROM up WHERE id = $1::bigint) AS hit`,
      [id, parentId],
    );
    return rows[0]!.hit;
  },
};

/** The field that enables or disables a row, when the entity has one. */
export function statusField(entity: EntityDef): string | undefined {
  return Object.entries(entity.fields).find(([, field]) => field.kind === 'status')?.[0];
}
