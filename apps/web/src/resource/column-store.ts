import type { EntityDef } from '@shuili/contract';

const keyOf = (entity: EntityDef) => `shuili.columns.${entity.name}`;

/** The columns a user hid on an entity's list, kept across visits; undefined if never set. */
export function loadHiddenColumns(entity: EntityDef): Set<string> | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(keyOf(entity)) ?? 'null');
    return Array.isArray(value)
      ? new Set(value.filter((item) => typeof item === 'string'))
      : undefined;
  } catch {
    // A hand-edited entry: start from the defaults.
    return undefined;
  }
}

export function saveHiddenColumns(entity: EntityDef, hidden: ReadonlySet<string>): void {
  try {
    localStorage.setItem(keyOf(entity), JSON.stringify([...hidden]));
  } catch {
    // Storage full or denied: the choice lasts for this visit only.
  }
}
