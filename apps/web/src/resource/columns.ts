import type { EntityDef, FieldDef, Label } from '@shuili/contract';
import type { ResourceRow } from './resource-row';
import type { FixedFilters } from './search-params';

/** The audit columns every row carries besides its declared fields; hidden until chosen. */
export const AUDIT_COLUMNS = ['createdAt', 'updatedAt'] as const;

export interface ColumnSpec {
  /** The row field the column shows. */
  name: string;
  /** The declaration, absent for the audit columns. */
  field?: FieldDef;
  /** The declaration's label; audit columns are titled by the screen (resource.*). */
  label?: Label;
  sortable: boolean;
  width?: number;
  /** Shown unless the user hides it in the column settings. */
  defaultVisible: boolean;
}

/** The value keys a field may arrive under: itself, or its label beside a reference. */
function keysOf(name: string, field: FieldDef | undefined): string[] {
  return field?.ref || field?.link ? [name, `${name}Label`] : [name];
}

/**
 * The list columns of an entity: its `list` fields (never write-only ones, nor fields the
 * screen fixes), then the audit columns, hidden by default unless the entity declares them.
 */
export function columnSpecsOf(entity: EntityDef, fixed: FixedFilters = {}): ColumnSpec[] {
  const specs: ColumnSpec[] = Object.entries(entity.fields)
    .filter(([name, field]) => field.list && !field.writeOnly && !(name in fixed))
    .map(([name, field]) => ({
      name,
      field,
      label: field.label,
      sortable: field.sortable && !field.link,
      width: field.width,
      defaultVisible: true,
    }));
  for (const name of AUDIT_COLUMNS) {
    if (name in entity.fields) continue;
    specs.push({ name, sortable: true, defaultVisible: false, width: 170 });
  }
  return specs;
}

/**
 * Columns whose field no row of the page carries: the caller's data permissions hide them, so
 * the table must too. With no rows nothing can be told, and nothing is hidden.
 */
export function absentColumns(
  specs: readonly ColumnSpec[],
  rows: readonly ResourceRow[],
): Set<string> {
  const absent = new Set<string>();
  if (rows.length === 0) return absent;
  for (const spec of specs) {
    const keys = keysOf(spec.name, spec.field);
    if (!rows.some((row) => keys.some((key) => Object.hasOwn(row, key)))) absent.add(spec.name);
  }
  return absent;
}

/** The columns hidden until the user shows them (the audit columns). */
export function defaultHidden(specs: readonly ColumnSpec[]): Set<string> {
  return new Set(specs.filter((spec) => !spec.defaultVisible).map((spec) => spec.name));
}

/** The columns the table shows: those the rows carry, minus those hidden in the settings. */
export function visibleColumns(
  specs: readonly ColumnSpec[],
  absent: ReadonlySet<string>,
  hidden: ReadonlySet<string>,
): ColumnSpec[] {
  return specs.filter((spec) => !absent.has(spec.name) && !hidden.has(spec.name));
}
