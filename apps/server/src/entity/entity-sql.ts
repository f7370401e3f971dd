import { columnOf, type EntityDef, type FieldDef } from '@shuili/contract';
import { storedFields } from './entity-ddl';

export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Builds a parameter list while SQL text is assembled: `p.add(value)` answers "$n". */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export function keyColumn(entity: EntityDef): string {
  return entity.key === 'id' ? 'id' : columnOf(entity.key, entity.fields[entity.key]!);
}

export function treeParentColumn(entity: EntityDef): string | undefined {
  if (!entity.tree) return undefined;
  return columnOf(entity.tree.parent, entity.fields[entity.tree.parent]!);
}

/**
 * A timestamp as the API answers it, ISO 8601 in UTC with milliseconds: exactly what
 * Date#toISOString makes of the value node-postgres would parse (both truncate to the
 * millisecond), written by the database so no row's dates are parsed into objects and
 * formatted again on every list call.
 */
const isoTimestamp = (ref: string) =>
  `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One field's value expression as the API answers it (ids, arrays and timestamps as text). */
function outputExpression(field: FieldDef, column: string): string {
  const ref = `t.${q(column)}`;
  if (field.sql === 'timestamptz') return isoTimestamp(ref);
  if (field.sql === 'bigint' || field.sql === 'numeric(14,2)') return `${ref}::text`;
  if (field.sql === 'text[]' || field.sql === 'bigint[]') return `${ref}::text[]`;
  return ref;
}

/**
 * The select list of a row: every visible column, reference labels beside their ids, link ids
 * and labels, and whether a tree node has children (for lazy trees).
 */
export function rowSelect(entity: EntityDef, options: { withLinks: boolean }): string {
  const parts = [
    `t.id::text AS id`,
    `${isoTimestamp('t.created_at')} AS "createdAt"`,
    `${isoTimestamp('t.updated_at')} AS "updatedAt"`,
  ];
  for (const [name, field, column] of storedFields(entity)) {
    if (field.writeOnly || column === 'created_at' || column === 'updated_at') continue;
    parts.push(`${outputExpression(field, column)} AS ${q(name)}`);
    if (field.targetsBy)
      parts.push(`${dependentLabels(entity, field, column)} AS ${q(`${name}Label`)}`);
    if (field.ref) {
      parts.push(
        `(SELECT r.${q(field.ref.labelColumn)}::text FROM ${q(field.ref.table)} r WHERE r.id = t.${q(column)}) AS ${q(`${name}Label`)}`,
      );
    }
  }
  for (const [name, field] of Object.entries(entity.fields)) {
    const link = field.link;
    if (!link || (!options.withLinks && !field.list)) continue;
    parts.push(
      `ARRAY(SELECT l.${q(link.toColumn)}::text FROM ${q(link.linkTable)} l WHERE l.${q(link.fromColumn)} = t.id ORDER BY 1) AS ${q(name)}`,
      `ARRAY(SELECT r.${q(link.labelColumn)}::text FROM ${q(link.linkTable)} l JOIN ${q(link.table)} r ON r.id = l.${q(link.toColumn)}
              WHERE l.${q(link.fromColumn)} = t.id ORDER BY l.${q(link.toColumn)}) AS ${q(`${name}Label`)}`,
    );
    // The spec's one-value name of the list (a user's roleId): its first id, in the list's order.
    if (field.singular)
      parts.push(
        `(SELECT l.${q(link.toColumn)}::text FROM ${q(link.linkTable)} l WHERE l.${q(link.fromColumn)} = t.id ORDER BY 1 LIMIT 1) AS ${q(field.singular)}`,
      );
  }
  // Computed values are selected on the page's rows only (the page is cut before it is labelled).
  for (const [name, field] of Object.entries(entity.fields))
    if (field.computed) parts.push(`(${field.computed}) AS ${q(name)}`);
  const parent = treeParentColumn(entity);
  if (parent) {
    const key = entity.fields[entity.tree!.parent]!.ref ? 'id' : keyColumn(entity);
    parts.push(
      `EXISTS (SELECT 1 FROM ${q(entity.table)} c WHERE c.${q(parent)} = t.${q(key)}) AS "hasChildren"`,
    );
  }
  return parts.join(',\n       ');
}

/** The labels of ids whose table another field names (a notification's roles, orgs or users). */
function dependentLabels(entity: EntityDef, field: FieldDef, column: string): string {
  const by = field.targetsBy!;
  const scope = columnOf(by.field, entity.fields[by.field]!);
  const cases = Object.entries(by.targets).map(
    ([value, target]) =>
      `WHEN '${value.replace(/'/g, "''")}' THEN ARRAY(SELECT r.${q(target.labelColumn)}::text FROM ${q(target.table)} r
         WHERE r.id = ANY(t.${q(column)}) ORDER BY array_position(t.${q(column)}, r.id))`,
  );
  return `CASE t.${q(scope)} ${cases.join(' ')} ELSE ARRAY[]::text[] END`;
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%" and nothing more. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
