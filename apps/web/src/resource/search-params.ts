import type { EntityDef, FieldDef } from '@shuili/contract';

/** Query parameters as sent: the http client leaves undefined ones out. */
export type QueryParams = Record<string, string | undefined>;

export interface PageState {
  currentPage: number;
  pageSize: number;
  /** A sortable field, or none for the entity's default order. */
  sort?: string;
  order?: 'ascend' | 'descend';
}

/** Filters that never show in the form: the screen fixes them (menuId of a menu's buttons). */
export type FixedFilters = Readonly<Record<string, string>>;

/** The fields the search form offers, in declaration order. */
export function searchFieldsOf(
  entity: EntityDef,
  fixed: FixedFilters = {},
): Array<[string, FieldDef]> {
  return Object.entries(entity.fields).filter(
    ([name, field]) => field.search !== undefined && !(name in fixed),
  );
}

interface DateLike {
  toISOString(): string;
}

function isDateLike(value: unknown): value is DateLike {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as { toISOString?: unknown }).toISOString === 'function'
  );
}

/** A chosen option of a select that keeps labels ({ value, label }). */
function optionValue(value: unknown): unknown {
  return value && typeof value === 'object' && 'value' in value
    ? (value as { value: unknown }).value
    : value;
}

/** One search value as its query parameter's text; blank for no filter. */
function paramText(value: unknown): string | undefined {
  const plain = optionValue(value);
  if (plain === undefined || plain === null) return undefined;
  if (isDateLike(plain)) return plain.toISOString();
  if (typeof plain === 'string') return plain.trim() || undefined;
  if (typeof plain === 'number' || typeof plain === 'boolean') return String(plain);
  return undefined;
}

/**
 * The query parameters of the search form's values: 'like' and 'eq' fields under their own
 * name, 'in' fields as a comma list, ranges as <field>From / <field>To ISO datetimes, references as one id; then the fixed
 * filters, which the form cannot override.
 */
export function searchParamsOf(
  entity: EntityDef,
  values: Record<string, unknown>,
  fixed: FixedFilters = {},
): QueryParams {
  const params: QueryParams = {};
  for (const [name, field] of searchFieldsOf(entity, fixed)) {
    const value = values[name];
    if (field.search === 'range') {
      const [from, to] = Array.isArray(value) ? value : [];
      const fromText = paramText(from);
      const toText = paramText(to);
      if (fromText) params[`${name}From`] = fromText;
      if (toText) params[`${name}To`] = toText;
      continue;
    }
    if (field.search === 'in') {
      // Several values as one comma list (the server's `in` filter).
      const texts = (Array.isArray(value) ? value : [value]).map(paramText).filter(Boolean);
      if (texts.length > 0) params[name] = texts.join(',');
      continue;
    }
    const text = paramText(Array.isArray(value) ? value[0] : value);
    if (text !== undefined) params[name] = text;
  }
  for (const [name, value] of Object.entries(fixed)) params[name] = value;
  return params;
}

/** Whether the search form filters anything (a tree then lists matches flat). */
export function hasFilters(params: QueryParams, fixed: FixedFilters = {}): boolean {
  return Object.entries(params).some(([name, value]) => value !== undefined && !(name in fixed));
}

/** Paging and sorting parameters of query<Name>. */
export function pageParamsOf(page: PageState): QueryParams {
  return {
    currentPage: String(page.currentPage),
    pageSize: String(page.pageSize),
    sort: page.sort && page.order ? page.sort : undefined,
    order: page.sort && page.order ? page.order : undefined,
  };
}
