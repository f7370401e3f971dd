export type ThingSection = 'properties' | 'events' | 'commands';

/** Where in the thing model a server field error points. */
export interface ErrorPlace {
  section: ThingSection;
  /** The row; undefined when the error is about the whole list (duplicate keys). */
  index: number | undefined;
  /** The rest of the path inside the row: `key`, `name.zh`, `params.0.max` ... */
  path: string;
}

/**
 * Reads a 400's field path (`thingModel.properties.2.key`, with or without the `thingModel.`
 * prefix) as a place in the editor; undefined for paths outside the thing model.
 */
export function errorPlace(field: string): ErrorPlace | undefined {
  const match = /^(?:thingModel\.)?(properties|events|commands)(?:\.(\d+))?(?:\.(.+))?$/.exec(
    field,
  );
  if (!match) return undefined;
  return {
    section: match[1] as ThingSection,
    index: match[2] === undefined ? undefined : Number(match[2]),
    path: match[3] ?? '',
  };
}
