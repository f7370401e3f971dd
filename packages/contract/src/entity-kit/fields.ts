import { z } from 'zod';
import { v } from '../validation';
import type { Label } from './label';

/**
 * How the list screen's search form filters on a field: equal, contains, a time range, or one of
 * a comma list (`deviceKind=irrigation_valve,pump_station`: a screen's fixed filter over several
 * values, `= ANY(...)`; plain and computed fields alike).
 */
export type SearchMode = 'eq' | 'like' | 'range' | 'in';

/** The form control the web renders for a field. */
export type Widget =
  | 'input'
  | 'textarea'
  | 'richtext'
  | 'number'
  | 'select'
  | 'dict'
  | 'ref'
  | 'refs'
  | 'switch'
  | 'status'
  | 'password'
  | 'datetime'
  | 'icon'
  | 'tags'
  | 'tree-ref';

export type SqlType =
  | 'text'
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'boolean'
  | 'timestamptz'
  | 'numeric(14,2)'
  | 'double precision'
  | 'jsonb'
  | 'text[]'
  | 'bigint[]';

export interface EnumOption {
  value: string;
  label: Label;
}

/** What a reference points to: another entity's table, shown by one of its columns. */
export interface RefTarget {
  table: string;
  /** The target's column shown instead of the id (lists, exports, selects). */
  labelColumn: string;
  /** The target's query call, for the form's select (path + call). */
  queryCall: string;
  /** The target's label field as the web reads it from query rows. */
  labelField: string;
  /** The target is a tree: the form shows a tree select fed by this call. */
  treeCall?: string;
  /** The target's code as query rows name it (a product's serial no.): selects search it too. */
  codeField?: string;
}

/** A many-to-many reference kept in a link table (user ↔ roles). */
export interface LinkTarget extends RefTarget {
  linkTable: string;
  /** Link column holding this entity's id. */
  fromColumn: string;
  /** Link column holding the target's id. */
  toColumn: string;
}

/** One field of an entity: its validation, column, and how every screen treats it. */
export interface FieldDef {
  kind: Widget;
  label: Label;
  sql: SqlType;
  /** The column; defaults to the field name in snake_case. Link fields have none. */
  column?: string;
  required: boolean;
  /** Validates one value as it arrives (before the required/optional wrapper). */
  input: z.ZodType;
  /** Shown as a list column. */
  list: boolean;
  /** The list can sort by it. */
  sortable: boolean;
  search?: SearchMode;
  /** Part of the create/edit form. */
  form: boolean;
  /** Only the create form has it (passwords, generated keys). */
  createOnly?: boolean;
  /** Never leaves the server (hashes). */
  writeOnly?: boolean;
  /** Accepted by the form but stored by a hook, not in a column (a new tenant's admin). */
  virtual?: boolean;
  /** Set by the server only (shown, never accepted). */
  readOnly?: boolean;
  export: boolean;
  unique?: boolean;
  options?: readonly EnumOption[];
  dictType?: string;
  ref?: RefTarget;
  link?: LinkTarget;
  /** Default for the create form and the column. */
  defaultValue?: string | number | boolean;
  min?: number;
  max?: number;
  /** Decimal places a decimal field keeps (coordinates: 6). */
  precision?: number;
  /** A pattern the web applies too, with its message key (validation.*). */
  pattern?: { source: string; key: string };
  /** Ids whose table depends on another field's value (recipients: roles, orgs or users). */
  targetsBy?: { field: string; targets: Record<string, RefTarget> };
  /**
   * A reference whose target is deleted: refuse (default), clear this field, or delete this row
   * with it (what only describes its target: a species label on a photo).
   */
  onDelete?: 'restrict' | 'set-null' | 'cascade';
  /** Width of the list column in px. */
  width?: number;
  /**
   * The spec's name for one value of this list (spec §3 User `roleId` beside `roleIds`): add and
   * update take it as a list of one, and rows answer the list's first value under it.
   */
  singular?: string;
  /**
   * A value the database computes for each row, never stored nor written: SQL over the row `t`,
   * run in the caller's transaction (row-level security applies). Listed, filtered ('eq', 'like'
   * or 'in') and exported like a column (a device's highest active alarm).
   */
  computed?: string;
  /**
   * The call whose grant a role needs to read this value, when it is another screen's data (a
   * device's alarm level is an alarm, its key values are telemetry): without that grant the
   * field is left out as the role's data permissions leave a field out (rows, filters, exports).
   */
  readGrant?: string;
}

type Common = Partial<
  Pick<
    FieldDef,
    | 'required'
    | 'list'
    | 'sortable'
    | 'search'
    | 'form'
    | 'createOnly'
    | 'writeOnly'
    | 'readOnly'
    | 'export'
    | 'unique'
    | 'column'
    | 'width'
    | 'defaultValue'
    | 'virtual'
    | 'onDelete'
    | 'computed'
    | 'readGrant'
  >
> & { label: Label };

function field(
  kind: Widget,
  sql: SqlType,
  input: z.ZodType,
  options: Common,
  extra: Partial<FieldDef> = {},
): FieldDef {
  const list = options.list ?? true;
  return {
    kind,
    sql,
    input,
    required: options.required ?? false,
    list,
    sortable: options.sortable ?? false,
    form: options.form ?? !options.readOnly,
    export: options.export ?? list,
    ...options,
    ...extra,
  };
}

const requiredText = z.string({
  error: (issue) =>
    issue.code === 'invalid_type'
      ? issue.input === undefined || issue.input === null
        ? 'validation.required'
        : 'validation.invalid'
      : undefined,
});

/** The spec's date format (§9 YYYY-MM-DD HH:mm:ss): a wall-clock time without an offset. */
const SPEC_DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A time in the spec's format, read in the server's time zone (as the exports print times) and
 * answered as an ISO time: a client written from the spec sends its dates so. An impossible
 * date (the 30th of February) is invalid, not moved to the next month.
 */
function fromSpecDatetime(text: string, ctx: z.RefinementCtx): string {
  const [, ...parts] = SPEC_DATETIME.exec(text)!;
  const [year, month, day, hour, minute, second] = parts.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = new Date(2000, month - 1, day, hour, minute, second);
  at.setFullYear(year);
  const same =
    at.getFullYear() === year &&
    at.getMonth() === month - 1 &&
    at.getDate() === day &&
    at.getHours() === hour &&
    at.getMinutes() === minute &&
    at.getSeconds() === second;
  if (!same || year < 1000) {
    ctx.addIssue({ code: 'custom', message: 'validation.invalid', input: text });
    return z.NEVER;
  }
  return at.toISOString();
}

const ID = /^\d{1,18}$/;
const idInput = () =>
  z
    .union([z.string(), z.number().int().nonnegative()], { error: 'validation.invalid' })
    .transform((value) => String(value))
    .pipe(z.string().regex(ID, { error: 'validation.invalid' }));

/** Field builders: each returns a complete FieldDef from a few options. */
export const f = {
  text: (
    options: Common & { min?: number; max?: number; pattern?: { source: string; key: string } },
  ) => {
    const min = options.min ?? (options.required ? 1 : 0);
    const max = options.max ?? 255;
    let schema = requiredText.trim().min(min).max(max);
    if (options.pattern)
      schema = schema.regex(new RegExp(options.pattern.source), { error: options.pattern.key });
    return field(
      'input',
      'text',
      schema,
      { search: 'like', ...options },
      { min, max, pattern: options.pattern },
    );
  },
  textarea: (options: Common & { max?: number }) =>
    field(
      'textarea',
      'text',
      requiredText.trim().max(options.max ?? 2000),
      { list: false, ...options },
      { max: options.max ?? 2000 },
    ),
  richtext: (options: Common & { max?: number }) =>
    field(
      'richtext',
      'text',
      requiredText
        .max(options.max ?? 100_000)
        // Markup alone ("<p> </p>") or blanks is no content.
        .refine((html) => !options.required || html.replace(/<[^>]*>|&nbsp;/g, '').trim() !== '', {
          error: 'validation.required',
        }),
      { list: false, ...options },
      { max: options.max ?? 100_000 },
    ),
  int: (options: Common & { min?: number; max?: number }) =>
    field(
      'number',
      'integer',
      // JSON numbers only: a boolean or a blank must not turn into 1 or 0.
      z
        .number({ error: 'validation.invalid' })
        .int({ error: 'validation.invalid' })
        .min(options.min ?? 0)
        .max(options.max ?? 1_000_000_000),
      { sortable: true, ...options },
      { min: options.min ?? 0, max: options.max ?? 1_000_000_000 },
    ),
  /**
   * A decimal number (coordinates, measured values): JSON numbers only, within the range, with
   * at most `precision` decimal places (more would be silently lost on display).
   */
  decimal: (options: Common & { min: number; max: number; precision: number }) =>
    field(
      'number',
      'double precision',
      z
        .number({ error: 'validation.invalid' })
        .min(options.min)
        .max(options.max)
        .refine((value) => Number(value.toFixed(options.precision)) === value, {
          error: 'validation.invalid',
        }),
      { sortable: true, search: undefined, ...options },
      { min: options.min, max: options.max, precision: options.precision },
    ),
  /**
   * An amount of money kept as integer fen in `column` (amounts are fen everywhere), shown in
   * yuan with two decimals ("12.50") in lists and exports. Read-only: money changes only through
   * the ledger's calls, never an entity form.
   */
  money: (options: Common & { column: string }) =>
    field(
      'number',
      'numeric(14,2)',
      z.never(),
      {
        readOnly: true,
        search: undefined,
        ...options,
        column: undefined,
        computed: `(t."${options.column}" / 100.0)::numeric(14,2)::text`,
      },
      { precision: 2 },
    ),
  /**
   * A JSON document kept beside the row but outside the generic calls (a product's thing model,
   * edited on its own page): never listed, exported, accepted by the form or answered by query.
   */
  json: (options: Common) =>
    field(
      'textarea',
      'jsonb',
      z.unknown(),
      { list: false, form: false, export: false, search: undefined, ...options },
      { writeOnly: true },
    ),
  /** A computed value of any JSON shape, for screens that render it themselves. */
  computedJson: (options: Common & { computed: string }) =>
    field('textarea', 'jsonb', z.unknown(), {
      readOnly: true,
      export: false,
      search: undefined,
      ...options,
    }),
  enumOf: (options: Common & { options: readonly EnumOption[] }) =>
    field(
      'select',
      'text',
      z.enum(options.options.map((option) => option.value) as [string, ...string[]]),
      { search: 'eq', ...options },
      { options: options.options },
    ),
  dict: (options: Common & { dictType: string }) =>
    field(
      'dict',
      'text',
      requiredText
        .trim()
        .min(options.required ? 1 : 0)
        .max(64),
      { search: 'eq', ...options },
      { dictType: options.dictType },
    ),
  ref: (options: Common & { target: RefTarget }) =>
    field(
      options.target.treeCall ? 'tree-ref' : 'ref',
      'bigint',
      idInput(),
      { search: 'eq', ...options },
      { ref: options.target },
    ),
  refs: ({ singular, ...options }: Common & { target: LinkTarget; singular?: string }) =>
    field(
      'refs',
      'bigint',
      z.array(idInput(), { error: 'validation.invalid' }).max(200),
      { sortable: false, export: true, ...options },
      { link: options.target, ...(singular ? { singular } : {}) },
    ),
  /** Enabled (1) or disabled (0); lists toggle it in place. */
  status: (options: Partial<Common> = {}) =>
    field(
      'status',
      'smallint',
      z.union([z.literal(0), z.literal(1)], { error: 'validation.status' }),
      {
        label: { en: 'Status', zh: '状态', tw: '狀態' },
        search: 'eq',
        defaultValue: 1,
        ...options,
      },
    ),
  email: (options: Common) => field('input', 'text', v.email(), { search: 'like', ...options }),
  mobile: (options: Common) => field('input', 'text', v.mobile(), { search: 'like', ...options }),
  password: (options: Common) =>
    field(
      'password',
      'text',
      v.password(),
      { list: false, export: false, createOnly: true, ...options },
      { writeOnly: true },
    ),
  /**
   * A secret kept only as a hash by the entity's hooks (an app client's own secret): taken on add
   * and update, within its length bounds and never trimmed, never answered, no column of its own.
   */
  secret: (options: Common & { min: number; max: number }) =>
    field(
      'password',
      'text',
      requiredText.min(options.min).max(options.max),
      { list: false, export: false, search: undefined, virtual: true, ...options },
      { writeOnly: true, min: options.min, max: options.max },
    ),
  /** true or false; the words "true" and "false" too, as form parameters and older clients send them. */
  bool: (options: Common) =>
    field(
      'switch',
      'boolean',
      z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
        error: 'validation.invalid',
      }),
      options,
    ),
  /** An ISO time with its offset, or the spec's YYYY-MM-DD HH:mm:ss in the server's zone. */
  datetime: (options: Common) =>
    field(
      'datetime',
      'timestamptz',
      z.union(
        [
          z.iso.datetime({ offset: true, error: 'validation.invalid' }),
          z.string().regex(SPEC_DATETIME).transform(fromSpecDatetime),
        ],
        { error: 'validation.invalid' },
      ),
      { sortable: true, ...options },
    ),
  /** A list of short strings (grant types, scopes). */
  tags: (options: Common & { options?: readonly EnumOption[] }) =>
    field(
      'tags',
      'text[]',
      (options.options
        ? z
            .array(z.enum(options.options.map((option) => option.value) as [string, ...string[]]))
            .max(20)
        : z.array(requiredText.trim().min(1).max(64)).max(50)
      ).min(options.required ? 1 : 0, { error: 'validation.required' }),
      { search: undefined, ...options },
      { options: options.options },
    ),
  /** A list of ids of another table kept in an array column (a notification's recipients). */
  idList: (options: Common & { targetsBy?: FieldDef['targetsBy'] }) =>
    field(
      'tags',
      'bigint[]',
      z.array(idInput()).max(10_000),
      { search: undefined, ...options },
      { targetsBy: options.targetsBy },
    ),
  icon: (options: Common) =>
    field('icon', 'text', requiredText.trim().max(64), { search: undefined, ...options }),
};
