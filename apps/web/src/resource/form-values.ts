import type { EntityDef, FieldDef } from '@shuili/contract';
import dayjs from 'dayjs';
import type { ResourceRow } from './resource-row';
import type { FixedFilters } from './search-params';

export type FormMode = 'create' | 'edit';

/** A chosen option that keeps its label, as reference selects hold their values. */
export interface LabeledValue {
  value: string;
  label: string;
}

/**
 * The fields of the create or edit form: declared `form` fields, never read-only ones,
 * create-only ones on create only, and none the screen fixes (they are sent as they are).
 */
export function formFieldsOf(
  entity: EntityDef,
  mode: FormMode,
  fixed: FixedFilters = {},
): Array<[string, FieldDef]> {
  return Object.entries(entity.fields).filter(
    ([name, field]) =>
      field.form && !field.readOnly && (mode === 'create' || !field.createOnly) && !(name in fixed),
  );
}

function isLabeled(value: unknown): value is LabeledValue {
  return !!value && typeof value === 'object' && 'value' in value;
}

/** Ids with the labels the row answers beside them, as a multiple select holds them. */
function labeledList(ids: unknown, labels: unknown): LabeledValue[] {
  const names = Array.isArray(labels) ? (labels as unknown[]) : [];
  return (Array.isArray(ids) ? ids : []).map((id, index) => ({
    value: String(id),
    label: String(names[index] ?? id),
  }));
}

/** A row's value as the field's form control holds it. */
function toFormValue(name: string, field: FieldDef, row: ResourceRow): unknown {
  const value = row[name];
  if (value === undefined || value === null) return undefined;
  if (field.targetsBy) return labeledList(value, row[`${name}Label`]);
  switch (field.kind) {
    case 'datetime': {
      const date = dayjs(value as string);
      return date.isValid() ? date : undefined;
    }
    case 'ref':
    case 'tree-ref': {
      const label = row[`${name}Label`];
      return { value: String(value), label: String(label ?? value) } satisfies LabeledValue;
    }
    case 'refs':
      return labeledList(value, row[`${name}Label`]);
    default:
      return value;
  }
}

/**
 * The form's starting values: the declaration's defaults on create (plus `preset`, e.g. the
 * parent of a new child), the row's values on edit. Fields a row lacks (hidden from the caller)
 * stay empty, and are never sent unless the user fills them.
 */
export function initialValuesOf(
  entity: EntityDef,
  mode: FormMode,
  row?: ResourceRow,
  preset: Record<string, unknown> = {},
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of formFieldsOf(entity, mode)) {
    if (mode === 'edit' && row) {
      const value = toFormValue(name, field, row);
      if (value !== undefined) values[name] = value;
    } else if (field.defaultValue !== undefined) {
      values[name] = field.defaultValue;
    }
  }
  return { ...values, ...preset };
}

/** A form control's value as the API takes it. */
function toApiValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (dayjs.isDayjs(value)) return value.toISOString();
  if (isLabeled(value)) return String(value.value);
  if (Array.isArray(value))
    return value.map((item) => (isLabeled(item) ? String(item.value) : item));
  if (typeof value === 'string' && field.kind !== 'password' && field.kind !== 'richtext') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  return value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The body of add<Name> (every filled form field plus the fixed ones) or update<Name> (the id
 * plus the fields that changed). Blank optional values are sent as null, which clears them.
 */
export function requestBodyOf(
  entity: EntityDef,
  mode: FormMode,
  values: Record<string, unknown>,
  options: { row?: ResourceRow; initial?: Record<string, unknown>; fixed?: FixedFilters } = {},
): Record<string, unknown> {
  const fixed = options.fixed ?? {};
  const body: Record<string, unknown> = {};
  for (const [name, field] of formFieldsOf(entity, mode, fixed)) {
    const value = toApiValue(field, values[name]);
    if (value === undefined) continue;
    if (mode === 'create') {
      if (value !== null) body[name] = value;
      continue;
    }
    if (!same(value, toApiValue(field, options.initial?.[name]))) body[name] = value;
  }
  if (mode === 'create') {
    for (const [name, value] of Object.entries(fixed)) {
      const field = entity.fields[name];
      if (field?.form && !field.readOnly) body[name] = value;
    }
    return body;
  }
  return { id: options.row?.id, ...body };
}

/**
 * The form fields whose value differs from where the form started, as the API would see them
 * (a blank and an untouched optional field are the same): what closing the form would lose.
 */
export function changedFieldsOf(
  entity: EntityDef,
  mode: FormMode,
  values: Record<string, unknown>,
  initial: Record<string, unknown>,
  fixed: FixedFilters = {},
): string[] {
  return formFieldsOf(entity, mode, fixed)
    .filter(
      ([name, field]) => !same(toApiValue(field, values[name]), toApiValue(field, initial[name])),
    )
    .map(([name]) => name);
}
