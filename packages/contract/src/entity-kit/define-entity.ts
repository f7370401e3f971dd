import type { FieldDef } from './fields';
import type { Label } from './label';

/**
 * Who owns the rows: one tenant each (row-level security), the platform alone (tenants, app
 * clients: only the platform tenant reads or writes them), or shared reference data (regions:
 * every tenant reads, the platform tenant writes).
 */
export type EntityScope = 'tenant' | 'platform' | 'shared';

export interface TreeShape {
  /** The field holding the parent's key. */
  parent: string;
  /** The field shown as the node's title. */
  title: string;
  /** Orders siblings. */
  sequence?: string;
}

/** What the generic calls of an entity may do; read-only entities (logs) allow query and export only. */
export interface EntityOperations {
  add: boolean;
  update: boolean;
  delete: boolean;
  export: boolean;
  status: boolean;
}

/** One entity as declared in packages/contract/src/entities: everything else derives from it. */
export interface EntityDef {
  /** The spec's call suffix: query<Name>, add<Name>, ... */
  name: string;
  title: Label;
  table: string;
  /** The spec's API prefix, e.g. /api/admin/sysuser. */
  path: string;
  /** The console route of its screen, e.g. /admin/sysuser. */
  route: string;
  /** The menu the screen hangs on; its buttons are <menuCode>:add, :edit, :delete, :export, :status. */
  menuCode: string;
  scope: EntityScope;
  /** The key the delete call takes (spec: regions are deleted by regionCode). */
  key: string;
  tree?: TreeShape;
  fields: Record<string, FieldDef>;
  operations: EntityOperations;
  defaultSort: { field: string; order: 'ascend' | 'descend' };
  /** Composite unique keys besides single-field `unique` (per tenant for tenant entities). */
  uniqueTogether?: string[][];
  /** Calls named differently from the generic scheme (spec §7). */
  calls?: Partial<Record<'query' | 'add' | 'update' | 'delete' | 'tree', string>>;
}

export type EntityInput = Omit<EntityDef, 'key' | 'operations' | 'defaultSort'> &
  Partial<Pick<EntityDef, 'key' | 'defaultSort'>> & { operations?: Partial<EntityOperations> };

/** Declares an entity, filling the defaults every entity shares. */
export function defineEntity(input: EntityInput): EntityDef {
  return {
    ...input,
    key: input.key ?? 'id',
    operations: {
      add: true,
      update: true,
      delete: true,
      export: true,
      status: Object.values(input.fields).some((field) => field.kind === 'status'),
      ...input.operations,
    },
    defaultSort:
      input.defaultSort ??
      (input.tree?.sequence
        ? { field: input.tree.sequence, order: 'ascend' }
        : { field: 'id', order: 'descend' }),
  };
}

/** A field name in snake_case: the column unless the field says otherwise. */
export function columnOf(name: string, field: FieldDef): string {
  return field.column ?? name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The call URLs of an entity, shared by the server (mounting) and the web (calling). */
export function entityCalls(entity: EntityDef) {
  // A call starting with "/" is a full path (spec: GET /api/admin/querySysRegion).
  const at = (call: string) => (call.startsWith('/') ? call : `${entity.path}/${call}`);
  const name = entity.name;
  return {
    query: at(entity.calls?.query ?? `query${name}`),
    add: at(entity.calls?.add ?? `add${name}`),
    update: at(entity.calls?.update ?? `update${name}`),
    delete: at(entity.calls?.delete ?? `delete${name}`),
    status: at(`update${name}Status`),
    tree: at(entity.calls?.tree ?? `query${name}Tree`),
    exportXlsx: at(`export${name}`),
    exportDocx: at(`exportWord${name}`),
    exportPdf: at(`exportPDF${name}`),
    exportCsv: at(`exportCsv${name}`),
  };
}
export type EntityCalls = ReturnType<typeof entityCalls>;

/** The button codes of an entity's screen, granted per role like menus. */
export function entityButtons(entity: EntityDef) {
  const code = (action: string) => `${entity.menuCode}:${action}`;
  return {
    add: code('add'),
    edit: code('edit'),
    delete: code('delete'),
    export: code('export'),
    status: code('status'),
  };
}
