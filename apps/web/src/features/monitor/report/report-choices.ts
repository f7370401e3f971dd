import type { DerivedFactorDef, ThingModel, ThingProperty } from '@shuili/contract';

/** Devices a report opens on, before the reader picks any. */
export const DEFAULT_DEVICES = 3;
/** Factors a report opens on: the area's first report factors. */
export const DEFAULT_FACTORS = 2;

/**
 * The factors the chosen devices offer: every numeric property (numbers, enums and booleans have
 * statistics; texts none), once per key, the area's report factors first in their order.
 */
export function factorChoices(
  models: readonly ThingModel[],
  reportFactors: readonly string[],
  derived: readonly DerivedFactorDef[] = [],
): ThingProperty[] {
  const byKey = new Map<string, ThingProperty>();
  for (const model of models)
    for (const property of model.properties)
      if (property.type !== 'string' && !byKey.has(property.key)) byKey.set(property.key, property);
  // What the server derives (a bayonet's rated flow) for a device having every input.
  for (const factor of derived)
    if (
      models.some((model) =>
        factor.inputs.every((input) => model.properties.some((one) => one.key === input)),
      )
    )
      byKey.set(factor.property.key, factor.property);
  const first = reportFactors.flatMap((key) => byKey.get(key) ?? []);
  return [...first, ...[...byKey.values()].filter((property) => !first.includes(property))];
}

/** The factors a report opens on: the area's report factors the devices have, else the first. */
export function defaultFactors(
  choices: readonly ThingProperty[],
  reportFactors: readonly string[],
): string[] {
  const preferred = choices.filter((property) => reportFactors.includes(property.key));
  return (preferred.length > 0 ? preferred : choices.slice(0, 1))
    .slice(0, DEFAULT_FACTORS)
    .map((property) => property.key);
}
