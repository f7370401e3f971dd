import type { EntityDef } from '@shuili/contract';

/**
 * One row as query<Name> answers it: ids as strings, `<field>Label` beside reference fields,
 * `hasChildren` on trees. Fields the caller's data permissions hide are simply absent.
 */
export interface ResourceRow {
  id: string;
  createdAt?: string | null;
  updatedAt?: string | null;
  hasChildren?: boolean;
  [field: string]: unknown;
}

/** The value the entity's key call (delete, tree parent) takes for a row: id, or regionCode. */
export function rowKeyOf(entity: EntityDef, row: ResourceRow): string {
  const value = row[entity.key];
  return value === undefined || value === null ? row.id : String(value);
}
