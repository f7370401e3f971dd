import type { FieldDef, Lang } from '@shuili/contract';
import { formatDate } from '../lib/format';
import { labelIn } from './field-label';
import type { Translate } from './field-rules';
import type { ResourceRow } from './resource-row';

export interface CellContext {
  lang: Lang;
  t: Translate;
  /** dictValue → dictName of the field's dictionary, once loaded. */
  dictNames?: ReadonlyMap<string, string>;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** The entries of a list-valued cell (tags, linked records), each as it reads. */
export function cellList(
  name: string,
  field: FieldDef,
  row: ResourceRow,
  context: Pick<CellContext, 'lang'>,
): string[] {
  if (field.link) {
    const labels = asList(row[`${name}Label`]);
    return (labels.length > 0 ? labels : asList(row[name])).map(String);
  }
  return asList(row[name]).map((item) => {
    const option = field.options?.find((candidate) => candidate.value === String(item));
    return option ? labelIn(option.label, context.lang) : String(item);
  });
}

/**
 * What a list cell reads for a field: option and dictionary values by their names, references
 * by their labels, dates formatted (spec §9), lists joined. Blank for no value.
 */
export function cellText(
  name: string,
  field: FieldDef | undefined,
  row: ResourceRow,
  context: CellContext,
): string {
  const value = row[name];
  if (!field) return formatDate(value as string | null | undefined);
  if (field.ref) {
    const label = row[`${name}Label`];
    return label === undefined || label === null ? String(value ?? '') : String(label);
  }
  if (field.link) return cellList(name, field, row, context).join(', ');
  if (value === undefined || value === null || value === '') return '';
  switch (field.kind) {
    case 'datetime':
      return formatDate(value as string);
    case 'switch':
      return context.t(value ? 'resource.yes' : 'resource.no');
    case 'status':
      return context.t(Number(value) === 1 ? 'resource.enabled' : 'resource.disabled');
    case 'dict':
      return context.dictNames?.get(String(value)) ?? String(value);
    case 'select':
    case 'tags':
      return cellList(name, field, row, context).join(', ');
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
