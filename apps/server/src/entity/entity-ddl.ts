import { columnOf, type EntityDef, type FieldDef } from '@shuili/contract';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The stored fields of an entity with their columns (links and virtual fields have none). */
export function storedFields(entity: EntityDef): Array<[string, FieldDef, string]> {
  return Object.entries(entity.fields)
    .filter(([, field]) => !field.link && !field.virtual && !field.computed)
    .map(([name, field]) => [name, field, columnOf(name, field)]);
}

function defaultOf(field: FieldDef): string {
  if (field.defaultValue === undefined) return '';
  if (typeof field.defaultValue === 'string')
    return ` DEFAULT '${field.defaultValue.replace(/'/g, "''")}'`;
  return ` DEFAULT ${String(field.defaultValue)}`;
}

/**
 * The DDL that makes the database hold an entity as declared: the table with its tenant and
 * audit columns, each declared column, unique keys (per tenant), and references that cannot
 * cross tenants. Additive and idempotent, so it can run at every start that changed it; columns
 * are never dropped or retyped here (that takes a written migration).
 */
export function entityDdl(entity: EntityDef): string[] {
  const table = quote(entity.table);
  const tenantOwned = entity.scope === 'tenant';
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${table} (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY
      ${tenantOwned ? ', tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE' : ''}
    )`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now()`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now()`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS created_by bigint`,
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS updated_by bigint`,
  ];
  if (tenantOwned) {
    // Lets other tables reference (tenant_id, id), so a reference can never reach another tenant.
    statements.push(
      `CREATE UNIQUE INDEX IF NOT EXISTS ${quote(`${entity.table}_tenant_id_id_key`)} ON ${table} (tenant_id, id)`,
    );
  }
  for (const [, field, column] of storedFields(entity)) {
    if (column === 'created_at' || column === 'updated_at') continue;
    const notNull =
      field.required && !field.createOnly && field.defaultValue !== undefined ? ' NOT NULL' : '';
    statements.push(
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${quote(column)} ${field.sql}${defaultOf(field)}${notNull}`,
    );
  }
  const scopeColumns = tenantOwned ? ['tenant_id'] : [];
  const uniqueKeys = [
    ...storedFields(entity)
      .filter(([, field]) => field.unique)
      .map(([name]) => [name]),
    ...(entity.uniqueTogether ?? []),
  ];
  for (const key of uniqueKeys) {
    const columns = key.map((name) => columnOf(name, entity.fields[name]!));
    const indexName = `${entity.table}_${columns.join('_')}_key`;
    statements.push(
      `CREATE UNIQUE INDEX IF NOT EXISTS ${quote(indexName)} ON ${table} (${[...scopeColumns, ...columns].map(quote).join(', ')})`,
    );
  }
  for (const [, field, column] of storedFields(entity)) {
    if (!field.ref) continue;
    const name = `${entity.table}_${column}_fk`;
    const target = quote(field.ref.table);
    const reference = tenantOwned
      ? `FOREIGN KEY (tenant_id, ${quote(column)}) REFERENCES ${target} (tenant_id, id)`
      : `FOREIGN KEY (${quote(column)}) REFERENCES ${target} (id)`;
    // Deleting something still referenced is refused (409 "in use") rather than cascading; checked
    // at the end of the statement, so a tenant's removal still takes all its rows at once.
    const onDelete =
      field.onDelete === 'set-null'
        ? ` ON DELETE SET NULL (${quote(column)})`
        : field.onDelete === 'cascade'
          ? ' ON DELETE CASCADE'
          : '';
    statements.push(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${name}') THEN
        ALTER TABLE ${table} ADD CONSTRAINT ${quote(name)} ${reference}${onDelete};
      END IF;
    END $$`);
    statements.push(
      `CREATE INDEX IF NOT EXISTS ${quote(`${entity.table}_${column}_idx`)} ON ${table} (${quote(column)})`,
    );
  }
  if (entity.tree && !entity.fields[entity.tree.parent]?.ref) {
    const parent = columnOf(entity.tree.parent, entity.fields[entity.tree.parent]!);
    statements.push(
      `CREATE INDEX IF NOT EXISTS ${quote(`${entity.table}_${parent}_idx`)} ON ${table} (${quote(parent)})`,
    );
  }
  return statements;
}

/** Link tables of many-to-many fields (user ↔ role), keyed within one tenant. */
export function linkDdl(entity: EntityDef): string[] {
  const statements: string[] = [];
  for (const field of Object.values(entity.fields)) {
    const link = field.link;
    if (!link) continue;
    const table = quote(link.linkTable);
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${table} (
        tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
        ${quote(link.fromColumn)} bigint NOT NULL REFERENCES ${quote(entity.table)}(id) ON DELETE CASCADE,
        ${quote(link.toColumn)} bigint NOT NULL REFERENCES ${quote(link.table)}(id) ON DELETE CASCADE,
        PRIMARY KEY (${quote(link.fromColumn)}, ${quote(link.toColumn)})
      )`,
    );
    for (const [column, target] of [
      [link.fromColumn, entity.table],
      [link.toColumn, link.table],
    ] as const) {
      const name = `${link.linkTable}_${column}_tenant_fk`;
      statements.push(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${name}') THEN
          ALTER TABLE ${table} ADD CONSTRAINT ${quote(name)} FOREIGN KEY (tenant_id, ${quote(column)})
            REFERENCES ${quote(target)} (tenant_id, id) ON DELETE CASCADE;
        END IF;
      END $$`);
    }
    statements.push(
      `CREATE INDEX IF NOT EXISTS ${quote(`${link.linkTable}_${link.toColumn}_idx`)} ON ${table} (${quote(link.toColumn)})`,
    );
  }
  return statements;
}

/** The whole schema the declarations ask for, in dependency order. */
export function entitiesDdl(entities: readonly EntityDef[]): string {
  const tables = entities.flatMap((entity) =>
    entityDdl(entity).filter((s) => !s.includes('FOREIGN KEY')),
  );
  // References last: every target table and its (tenant_id, id) key exists by then.
  const references = entities.flatMap((entity) =>
    entityDdl(entity).filter((s) => s.includes('FOREIGN KEY')),
  );
  const links = entities.flatMap(linkDdl);
  return [...tables, ...references, ...links].map((statement) => `${statement};`).join('\n');
}
