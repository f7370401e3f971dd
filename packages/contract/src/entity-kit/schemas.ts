import { z } from 'zod';
import type { EntityDef } from './define-entity';
import type { FieldDef } from './fields';
import { withSingularNames, type SingularName } from './singular';

/** Blank form values mean "no value" for optional fields. */
const blankToNull = (value: unknown) => (value === '' ? null : value);

function writable(entity: EntityDef) {
  return Object.entries(entity.fields).filter(([, field]) => field.form && !field.readOnly);
}

function optionalInput(field: FieldDef) {
  return z.preprocess(blankToNull, field.input.nullable().optional());
}

/** The spec's singular names of the entity's writable list fields (a user's roleId). */
function singularNamesOf(entity: EntityDef, creating: boolean): SingularName[] {
  return writable(entity)
    .filter(([, field]) => field.singular && !(field.createOnly && !creating))
    .map(([name, field]) => ({
      list: name,
      singular: field.singular!,
      element: (field.input as z.ZodArray).element as z.ZodType,
      required: creating && field.required,
    }));
}

/** The body of add<Name>: every form field, required ones required. */
export function createSchemaOf(entity: EntityDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of writable(entity)) {
    shape[name] = field.required
      ? field.defaultValue !== undefined
        ? field.input.default(field.defaultValue as never)
        : field.input
      : optionalInput(field);
  }
  return withSingularNames(shape, singularNamesOf(entity, true));
}

/**
 * The body of update<Name>: the record's id plus any form field; absent fields keep their value.
 * An entity keyed by another field (a region's regionCode, an app client's clientId) may name the
 * record by that key instead of its id, as its delete call does (spec §7 "delete by regionCode").
 */
export function updateSchemaOf(entity: EntityDef) {
  const byKey = entity.key !== 'id';
  const shape: Record<string, z.ZodType> = { id: byKey ? idSchema.optional() : idSchema };
  for (const [name, field] of writable(entity)) {
    if (field.createOnly) continue;
    shape[name] = field.required ? field.input.optional() : optionalInput(field);
  }
  const schema = withSingularNames(shape, singularNamesOf(entity, false));
  if (!byKey) return schema;
  return schema.superRefine((body, context) => {
    const values = body as Record<string, unknown>;
    if (
      values.id === undefined &&
      (values[entity.key] === undefined || values[entity.key] === null)
    )
      context.addIssue({ code: 'custom', path: ['id'], message: 'validation.required' });
  });
}

export const idSchema = z
  .union([z.string(), z.number().int().nonnegative()], { error: 'validation.required' })
  .transform(String)
  .pipe(z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }));

/** One id or a comma-separated list of them (batch delete). */
export const idListSchema = z
  .union([z.string(), z.number().int().nonnegative(), z.array(z.union([z.string(), z.number()]))], {
    error: 'validation.required',
  })
  .transform((value) =>
    (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((id) => id.trim()),
  )
  .pipe(
    z
      .array(z.string().min(1, { error: 'validation.required' }).max(64))
      .min(1)
      .max(1000),
  );

/** The most values one `in` filter takes. */
export const IN_FILTER_MAX = 50;
const IN_ITEM = /^[A-Za-z0-9_.:-]{1,64}$/;
const ID_ITEM = /^\d{1,18}$/;

/**
 * An `in` filter's value: a comma list of up to IN_FILTER_MAX values, each an option of the field
 * (enums), an id (references) or a plain code; kept as the text the repo splits.
 */
export function inListSchema(field: FieldDef) {
  const options = field.options ? new Set(field.options.map((option) => option.value)) : undefined;
  const fits = (item: string) =>
    options ? options.has(item) : (field.sql === 'bigint' ? ID_ITEM : IN_ITEM).test(item);
  return z
    .string()
    .max(IN_FILTER_MAX * 65)
    .refine(
      (text) => {
        const items = text.split(',');
        return items.length <= IN_FILTER_MAX && items.every(fits);
      },
      { error: 'validation.invalid' },
    );
}

/** The values of a validated `in` filter. */
export const inListValues = (text: string): string[] => [...new Set(text.split(','))];

export const SORT_ORDERS = ['ascend', 'descend'] as const;

/** The query of query<Name> and the exports: paging, sorting and the declared search filters. */
export function querySchemaOf(entity: EntityDef) {
  const shape: Record<string, z.ZodType> = {
    currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(10_000).default(10),
    sort: z.enum(sortableFields(entity) as [string, ...string[]]).optional(),
    order: z.enum(SORT_ORDERS).optional(),
  };
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!field.search) continue;
    if (field.search === 'in') {
      shape[name] = z.preprocess(blankToNull, inListSchema(field).nullable().optional());
    } else if (field.search === 'range') {
      shape[`${name}From`] = z.iso.datetime({ offset: true }).optional();
      shape[`${name}To`] = z.iso.datetime({ offset: true }).optional();
    } else if (field.kind === 'refs' || field.sql === 'bigint') {
      shape[name] = z.preprocess(
        blankToNull,
        z
          .string()
          .regex(/^\d{1,18}$/, { error: 'validation.invalid' })
          .nullable()
          .optional(),
      );
    } else if (field.sql === 'smallint' || field.sql === 'integer') {
      shape[name] = z.preprocess(
        blankToNull,
        z
          .string()
          .regex(/^-?\d{1,4}$/, { error: 'validation.invalid' })
          .nullable()
          .optional(),
      );
    } else if (field.sql === 'boolean') {
      shape[name] = z.preprocess(blankToNull, z.enum(['true', 'false']).nullable().optional());
    } else {
      shape[name] = z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional());
    }
  }
  if (entity.tree) {
    // A parent that is a reference holds an id (a bigint column): refuse anything else here,
    // or the database refuses it with a server error. Blank still asks for the roots.
    shape.parentId = entity.fields[entity.tree.parent]?.ref
      ? z
          .string()
          .regex(/^(\d{1,18})?$/, { error: 'validation.invalid' })
          .optional()
      : z.string().max(64).optional();
  }
  return z.object(shape);
}

export function sortableFields(entity: EntityDef): string[] {
  return [
    'id',
    'createdAt',
    'updatedAt',
    ...Object.entries(entity.fields)
      .filter(([, field]) => field.sortable && !field.link)
      .map(([name]) => name),
  ];
}

function outputOf(field: FieldDef): z.ZodType {
  switch (field.sql) {
    case 'smallint':
    case 'integer':
    case 'double precision':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'text[]':
    case 'bigint[]':
      return z.array(z.string());
    case 'jsonb':
      // Only computed values leave the server as JSON (stored JSON fields are write-only).
      return z.unknown();
    case 'bigint':
      return field.link ? z.array(z.string()) : z.string();
    default:
      return z.string();
  }
}

/** One row as the server answers it: ids as strings, reference labels beside their ids. */
export function rowSchemaOf(entity: EntityDef) {
  const shape: Record<string, z.ZodType> = {
    id: z.string(),
    createdAt: z.string().nullable().optional(),
    updatedAt: z.string().nullable().optional(),
  };
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.writeOnly) continue;
    shape[name] = outputOf(field).nullable().optional();
    if (field.ref) shape[`${name}Label`] = z.string().nullable().optional();
    if (field.link || field.targetsBy)
      shape[`${name}Label`] = z.array(z.string()).nullable().optional();
    if (field.singular) shape[field.singular] = z.string().nullable().optional();
  }
  if (entity.tree) shape.hasChildren = z.boolean().optional();
  return z.object(shape);
}
