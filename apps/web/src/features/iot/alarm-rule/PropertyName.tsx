import { useLabel } from '../../../resource/field-label';
import type { ResourceRow } from '../../../resource/resource-row';
import { useRuleProperties } from './rule-properties';

/** The scope (product or device) a row of a rule or an alarm names, as the rule form holds it. */
function scopeOf(row: ResourceRow, field: 'productId' | 'deviceId') {
  const value = row[field];
  if (value === null || value === undefined || value === '') return undefined;
  return { value: String(value as string | number), label: String(row[`${field}Label`] ?? '') };
}

/**
 * A watched property by its name in the reader's language ("Pressure", 压力), read from the
 * thing model of the row's device or product, instead of its key; the key while that loads.
 */
export function PropertyName({ propertyKey, row }: { propertyKey: unknown; row: ResourceRow }) {
  const label = useLabel();
  const device = scopeOf(row, 'deviceId');
  const properties = useRuleProperties(device ? undefined : scopeOf(row, 'productId'), device);
  const property = properties.data?.find((one) => one.key === propertyKey);
  return <>{property ? label(property.name) : String(propertyKey ?? '')}</>;
}
