import type { EntityDef } from '@shuili/contract';
import type { Row } from './entity-repo';

/** Dates become ISO strings; fields the role may not see are removed (data permissions). */
export function shapeRow(row: Row, visible: ReadonlySet<string> | undefined): Row {
  // Rows of rowSelect carry timestamps as text already: with every field visible, most rows
  // need no change, and a list answers without copying each of them once more.
  if (!visible && !Object.values(row).some((value) => value instanceof Date)) return row;
  const shaped: Row = {};
  for (const [name, value] of Object.entries(row)) {
    if (visible && !alwaysVisible.has(name) && !visible.has(name.replace(/Label$/, ''))) continue;
    shaped[name] = value instanceof Date ? value.toISOString() : value;
  }
  return shaped;
}

const alwaysVisible = new Set(['id', 'createdAt', 'updatedAt', 'hasChildren']);

/** The declared fields a role may see, in declaration order. */
export function visibleFieldNames(
  entity: EntityDef,
  visible: ReadonlySet<string> | undefined,
): string[] {
  return Object.keys(entity.fields).filter((name) => !visible || visible.has(name));
}
