import { ENTITIES, ROLE_ADMIN, type EntityDef, type FieldDef } from '@shuili/contract';
import type { Sql } from '../db/database';
import { AppError } from '../http/app-error';

/**
 * Whether a role's data permissions filter this entity's rows: tenant data only. Platform and
 * shared lists (tenants, app clients, regions) are the same for every role that may open them.
 */
export function hasDataPermissions(entity: EntityDef): boolean {
  return entity.scope === 'tenant';
}

/**
 * The fields a data permission on a menu may name, each with its declaration: the readable
 * fields of every entity declaring that menu (its screen lists them; entities sharing a screen,
 * such as menus and their buttons, share its rule), when data permissions filter that entity.
 * Empty for a menu whose screen lists no such data (the workbench, a group, the platform's lists).
 */
export function dataFieldsOfMenu(menuCode: string): Map<string, FieldDef> {
  const fields = new Map<string, FieldDef>();
  for (const entity of ENTITIES) {
    if (entity.menuCode !== menuCode || !hasDataPermissions(entity)) continue;
    for (const [name, field] of Object.entries(entity.fields))
      if (!field.writeOnly && !field.virtual && !fields.has(name)) fields.set(name, field);
  }
  return fields;
}

/**
 * A rule's comma list of fields, checked against its menu and normalised ("a, b" -> "a,b"). A
 * menu listing no data, or a field its screen does not have, is a 400 naming the field at fault.
 */
export function checkDataFields(menuCode: string, dataFields: string): string {
  const known = dataFieldsOfMenu(menuCode);
  if (known.size === 0) {
    // The caller's text is not echoed back: the field name says enough.
    throw new AppError(400, 'validation.menuWithoutData', {
      fields: [{ field: 'menuCode', key: 'validation.menuWithoutData' }],
    });
  }
  const listed = dataFields
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (listed.length === 0) {
    throw new AppError(400, 'validation.required', {
      fields: [{ field: 'dataFields', key: 'validation.required' }],
    });
  }
  const unknown = listed.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const params = { fields: unknown.join(', ') };
    throw new AppError(400, 'validation.unknownFields', {
      params,
      fields: [{ field: 'dataFields', key: 'validation.unknownFields', params }],
    });
  }
  return listed.join(',');
}

/**
 * Data permissions (spec §6): per role and menu, the fields the role may see. No rule means
 * every field; ROLE_ADMIN always sees every field. Read in the tenant's transaction (RLS).
 */
export class DataFieldService {
  async visible(
    sql: Sql,
    role: string,
    menuCode: string,
  ): Promise<ReadonlySet<string> | undefined> {
    if (role === ROLE_ADMIN) return undefined;
    const { rows } = await sql.query<{ data_fields: string }>(
      'SELECT data_fields FROM sys_data_permission WHERE role_code = $1 AND menu_code = $2',
      [role, menuCode],
    );
    if (rows.length === 0) return undefined;
    const visible = new Set(
      rows.flatMap((row) =>
        row.data_fields
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    );
    // A list's one-value name (a user's roleId) is as visible as the list itself.
    for (const [name, field] of dataFieldsOfMenu(menuCode))
      if (field.singular && visible.has(name)) visible.add(field.singular);
    return visible;
  }
}
