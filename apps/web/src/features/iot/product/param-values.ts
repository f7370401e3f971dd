import type { ThingParam } from '@shuili/contract';

/** A parameter, or a property with its access. */
export type ParamValues = ThingParam & { access?: 'r' | 'rw' };

/** The value types that have a unit, a range and a precision. */
export const NUMERIC_TYPES: ReadonlySet<string> = new Set(['number', 'integer']);

/**
 * The dialog's values as stored: the key trimmed, and no field the type does not use (a form
 * keeps the unit typed before switching to enum, say), so the model holds only what applies.
 */
export function cleanParam(values: ParamValues, withAccess: boolean): ParamValues {
  const numeric = NUMERIC_TYPES.has(values.type);
  const result: ParamValues = { key: values.key.trim(), name: values.name, type: values.type };
  if (withAccess) result.access = values.access ?? 'r';
  if (values.factor) result.factor = values.factor;
  if (numeric && values.unit?.trim()) result.unit = values.unit.trim();
  if (numeric && typeof values.min === 'number') result.min = values.min;
  if (numeric && typeof values.max === 'number') result.max = values.max;
  if (numeric && typeof values.precision === 'number') result.precision = values.precision;
  if (values.type === 'enum') result.options = values.options ?? [];
  return result;
}
