import fc from 'fast-check';

/**
 * fast-check arbitraries derived from a zod 4 schema: values the schema should accept (biased to
 * its edges) and mutations of them it should refuse. They read zod's internal definitions
 * (`schema._zod.def`), which is why they are typed loosely: the walker handles every kind.
 *
 * Neither side has to be exact. The suite asks the schema itself (safeParse) what it makes of
 * each generated value and expects the server to agree, so a "mutation" the schema happens to
 * accept is simply sent as an edge-case valid input.
 */
type Schema = { _zod: { def: any } };

const defOf = (schema: Schema): any => schema._zod.def;

/** Deeper than this, recursive (lazy) schemas stop growing. */
const MAX_DEPTH = 4;

export interface StringRules {
  min: number;
  max: number;
  patterns: RegExp[];
  format?: string;
}

export interface NumberRules {
  min: number;
  max: number;
  integer: boolean;
}

function checksOf(schema: Schema): any[] {
  return (defOf(schema).checks ?? []).map((check: Schema) => defOf(check));
}

export function stringRules(schema: Schema): StringRules {
  const def = defOf(schema);
  const rules: StringRules = { min: 0, max: Infinity, patterns: [], format: def.format };
  if (def.pattern instanceof RegExp) rules.patterns.push(def.pattern);
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length') rules.min = Math.max(rules.min, check.minimum);
    if (check.check === 'max_length') rules.max = Math.min(rules.max, check.maximum);
    if (check.check === 'length_equals') rules.min = rules.max = check.length;
    if (check.check === 'string_format') {
      if (check.pattern instanceof RegExp) rules.patterns.push(check.pattern);
      rules.format ??= check.format;
    }
  }
  return rules;
}

export function numberRules(schema: Schema): NumberRules {
  const rules: NumberRules = {
    min: -Number.MAX_SAFE_INTEGER,
    max: Number.MAX_SAFE_INTEGER,
    integer: false,
  };
  for (const check of checksOf(schema)) {
    if (check.check === 'greater_than')
      rules.min = Math.max(rules.min, check.value + (check.inclusive ? 0 : 1));
    if (check.check === 'less_than')
      rules.max = Math.min(rules.max, check.value - (check.inclusive ? 0 : 1));
    if (check.check === 'number_format') {
      rules.integer = /int/.test(check.format);
      if (check.format === 'int32') {
        rules.min = Math.max(rules.min, -(2 ** 31));
        rules.max = Math.min(rules.max, 2 ** 31 - 1);
      }
    }
  }
  return rules;
}

/** Object keys a schema requires (its value does not accept undefined). */
export function requiredKeys(schema: Schema): string[] {
  const shape = defOf(schema).shape as Record<string, Schema>;
  return Object.keys(shape).filter(
    (key) => (shape[key] as any)._zod.optin !== 'optional' && !acceptsUndefined(shape[key]!),
  );
}

function acceptsUndefined(schema: Schema): boolean {
  return (schema as any)['~standard'].validate(undefined).issues === undefined;
}

/** Text a form field could hold that tends to break storage or rendering. */
export const HOSTILE_TEXT = [
  "' OR '1'='1",
  '1; DROP TABLE sys_user; --',
  "admin'--",
  '" UNION SELECT NULL, version() --',
  '%_%',
  '\\',
  'a\u0000b',
  '\u202Eevil\u202C',
  '\u0645\u0631\u062D\u0628\u0627',
  '👨‍👩‍👧‍👦🚿💧',
  '水利 灌溉',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '   ',
  '\t\r\n',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0x1F',
  '1e309',
  '１２３',
  '\uD800',
];

/** Strings at and just inside a length range (the caller's oracle drops those the schema refuses). */
function stringEdges(rules: StringRules): string[] {
  const max = Number.isFinite(rules.max) ? rules.max : 300;
  const min = Math.max(rules.min, 0);
  return [
    'x'.repeat(max),
    '水'.repeat(max),
    '💧'.repeat(Math.floor(max / 2)),
    'x'.repeat(min),
    ` ${'y'.repeat(Math.max(min, 1))} `,
    ...HOSTILE_TEXT.filter((text) => text.length >= min && text.length <= max),
  ];
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const rules = stringRules(schema);
  const max = Number.isFinite(rules.max) ? rules.max : 300;
  let shaped: fc.Arbitrary<string>;
  if (rules.format === 'email') shaped = fc.emailAddress();
  else if (rules.format === 'datetime')
    shaped = fc
      .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
  else if (rules.format === 'uuid' || rules.format === 'guid') shaped = fc.uuid();
  else if (rules.format === 'url') shaped = fc.webUrl();
  else if (rules.patterns.length > 0)
    shaped = fc.constantFrom(...patternMatches(rules.patterns[0]!));
  else shaped = fc.string({ unit: 'grapheme', minLength: rules.min, maxLength: Math.min(max, 40) });
  // A pattern's edges are its largest matches: 18-digit ids, the biggest numbers it admits.
  const patternEdges = rules.patterns.flatMap(patternEdgeValues);
  return fc.oneof(
    { weight: 3, arbitrary: shaped },
    { weight: 2, arbitrary: fc.constantFrom(...stringEdges(rules), ...patternEdges) },
  );
}

const matchesByPattern = new Map<string, string[]>();

/**
 * Strings matching a pattern, drawn once per pattern: fc.stringMatching is slow to draw from
 * for patterns with negated classes (the e-mail pattern), and the suite draws thousands.
 */
function patternMatches(pattern: RegExp): string[] {
  const key = `${pattern.source}/${pattern.flags}`;
  let matches = matchesByPattern.get(key);
  if (!matches) {
    matches = [...new Set(fc.sample(fc.stringMatching(pattern), { numRuns: 40, seed: 42 }))];
    matchesByPattern.set(key, matches);
  }
  return matches;
}

/** Extreme matches of the number-like patterns the schemas use for ids and small integers. */
function patternEdgeValues(pattern: RegExp): string[] {
  const candidates = [
    '0',
    '1',
    '999999999999999999',
    '9223372036854775807',
    '2147483648',
    '-9999',
    '9999',
    '-1',
    '32768',
    '-32769',
  ];
  return candidates.filter((candidate) => pattern.test(candidate));
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const rules = numberRules(schema);
  const edges = [rules.min, rules.max, 0, 1, -1, 2 ** 31, 2 ** 31 - 1, 2 ** 15].filter(
    (value) => value >= rules.min && value <= rules.max,
  );
  const drawn = rules.integer
    ? fc.integer({ min: rules.min, max: rules.max })
    : fc.double({ min: rules.min, max: rules.max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(drawn, fc.constantFrom(...edges));
}

/** Values the schema should accept, biased to its edges (lengths, bounds, odd text). */
export function validArbitrary(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > MAX_DEPTH) return fc.constant(undefined);
  const inner = (child: Schema) => validArbitrary(child, depth + 1);
  switch (def.type) {
    case 'optional':
      return fc.option(validArbitrary(def.innerType, depth), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(validArbitrary(def.innerType, depth), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
      return fc.option(validArbitrary(def.innerType, depth), { nil: undefined, freq: 3 });
    case 'nonoptional':
    case 'readonly':
      return validArbitrary(def.innerType, depth);
    case 'lazy':
      return validArbitrary(def.getter(), depth + 1);
    case 'pipe': {
      // Both sides: the receiving side's shape (an id pattern) is usually what the input
      // side (a string-or-number union) lets through.
      const sides = [def.in, def.out].filter((side) => defOf(side).type !== 'transform');
      return fc.oneof(...sides.map((side) => validArbitrary(side, depth)));
    }
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'bigint':
      return fc.bigInt();
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
    case 'never':
      return fc.constant(undefined);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'array': {
      const { min, max } = stringRules(schema);
      const element = inner(def.element);
      return fc.oneof(
        fc.array(element, { minLength: min, maxLength: Math.max(min, Math.min(max, 4)) }),
        // The longest list the schema admits (id lists of batch operations).
        Number.isFinite(max) && max <= 1000
          ? fc.array(element, { minLength: max, maxLength: max })
          : fc.array(element, { minLength: min, maxLength: min }),
      );
    }
    case 'tuple':
      return fc.tuple(...(def.items as Schema[]).map(inner));
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map(inner));
    case 'intersection':
      return inner(def.left);
    case 'record':
      return fc.dictionary(
        validArbitrary(def.keyType, depth + 1).map(String),
        inner(def.valueType),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const model = Object.fromEntries(
        Object.entries(shape).map(([key, child]) => [key, inner(child)]),
      );
      return fc.record(model, { requiredKeys: requiredKeys(schema) });
    }
    default:
      // any, unknown, custom and the rest: plain JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values of the wrong kind that fit in any slot. */
const WRONG_KINDS: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  '',
  'x',
  [],
  ['x'],
  {},
  { nested: { deeper: 1 } },
];

/**
 * The plain schemas an input meets: wrappers peeled off, both sides of a pipe (unless one is a
 * transform), every option of a union.
 */
export function inputCores(schema: Schema): Schema[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'catch':
    case 'readonly':
      return inputCores(def.innerType);
    case 'lazy':
      return inputCores(def.getter());
    case 'pipe':
      return [def.in, def.out]
        .filter((side) => defOf(side).type !== 'transform')
        .flatMap(inputCores);
    case 'union':
      return (def.options as Schema[]).flatMap(inputCores);
    default:
      return [schema];
  }
}

/** Refusals aimed at the schema's kinds: lengths, bounds, formats, types (deduplicated). */
export function badValues(schema: Schema): unknown[] {
  const cached = badValuesCache.get(schema);
  if (cached) return cached;
  const seen = new Set<string>();
  const values = inputCores(schema)
    .flatMap(badValuesOfCore)
    .filter((value) => {
      const key = typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  badValuesCache.set(schema, values);
  return values;
}

const badValuesCache = new WeakMap<Schema, unknown[]>();

function badValuesOfCore(core: Schema): unknown[] {
  const def = defOf(core);
  switch (def.type) {
    case 'string': {
      const rules = stringRules(core);
      const over = Number.isFinite(rules.max) ? rules.max + 1 : 10_000;
      return [
        'x'.repeat(over),
        '水'.repeat(over),
        '💧'.repeat(Math.ceil(over / 2) + 1),
        'x'.repeat(100_000),
        rules.min > 0 ? 'x'.repeat(rules.min - 1) : '',
        ' '.repeat(Math.max(rules.min, 1)),
        '1'.repeat(19),
        '99999999999999999999',
        '-1',
        '1.5',
        'abc',
        'not-an-email',
        '2024-13-45T25:61:00Z',
        ...HOSTILE_TEXT,
        ...WRONG_KINDS,
        12345,
        Number.MAX_SAFE_INTEGER + 2,
      ];
    }
    case 'number': {
      const rules = numberRules(core);
      return [
        rules.min - 1,
        rules.max + 1,
        rules.min - 0.5,
        2 ** 53 + 2,
        -(2 ** 53) - 2,
        1e308,
        -1e308,
        2 ** 31,
        2 ** 63,
        0.1,
        '12',
        'NaN',
        'Infinity',
        '-Infinity',
        '1e309',
        '0x1F',
        ' 7 ',
        '9223372036854775808',
        ...WRONG_KINDS,
      ];
    }
    case 'boolean':
      return ['true', 'false', 'yes', 1, 0, ...WRONG_KINDS];
    case 'enum':
    case 'literal': {
      const values = def.type === 'enum' ? Object.values(def.entries) : def.values;
      const first = values[0];
      return [
        'not-a-member',
        typeof first === 'string' ? first.toUpperCase() : String(first),
        typeof first === 'string' ? ` ${first} ` : `${first}`,
        [first],
        ...WRONG_KINDS,
      ];
    }
    case 'array': {
      const { min, max } = stringRules(core);
      const filler = def.element ? firstValid(def.element) : 'x';
      return [
        Number.isFinite(max) ? Array.from({ length: max + 1 }, () => filler) : [],
        min > 0 ? [] : Array.from({ length: 10_001 }, () => filler),
        filler,
        'a,b,c',
        [null],
        [{}],
        [[filler]],
        ...WRONG_KINDS,
      ];
    }
    case 'object':
    case 'record':
      return ['{}', [], [{}], deeplyNested(200), ...WRONG_KINDS];
    default:
      return WRONG_KINDS;
  }
}

/** One value the schema accepts, to fill lists and untouched fields. */
export function firstValid(schema: Schema): unknown {
  const [value] = fc.sample(validArbitrary(schema), { numRuns: 1, seed: 1 });
  return value;
}

/** {"a":{"a":{...}}} nested `depth` times. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

/** An object with an own property named like a prototype key (object spread would drop it). */
function withOwnKey(base: Record<string, unknown>, key: string, value: unknown) {
  const copy = { ...base };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

export interface Mutant {
  value: unknown;
  /** What was changed, for the failure message (e.g. "pageSize ← -1"). */
  note: string;
}

const describe = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * A valid value with one thing broken: a field set to a bad value of its kind (recursively into
 * nested objects and lists), a required field removed, an unknown or prototype-polluting key
 * added, or the whole value replaced by something of another shape.
 */
export function mutantArbitrary(schema: Schema, depth = 0, path = ''): fc.Arbitrary<Mutant> {
  const cores = inputCores(schema);
  // A list or object among the shapes is where structure can be broken.
  const core =
    cores.find((one) => defOf(one).type === 'object') ??
    cores.find((one) => defOf(one).type === 'array') ??
    cores[0]!;
  const def = defOf(core);
  const wholesale = fc
    .constantFrom(...badValues(schema))
    .map((value) => ({ value, note: `${path || '(whole)'} ← ${describe(value)}` }));
  const anything = fc
    .anything({ maxDepth: 2 })
    .map((value) => ({ value, note: `${path || '(whole)'} ← ${describe(value)}` }));
  if (depth > MAX_DEPTH) return wholesale;

  if (def.type === 'object') {
    const shape = def.shape as Record<string, Schema>;
    const keys = Object.keys(shape);
    const base = validArbitrary(core, depth) as fc.Arbitrary<Record<string, unknown>>;
    const choices: fc.Arbitrary<Mutant>[] = [wholesale];
    if (keys.length > 0) {
      // Built once, not inside each draw: a field's bad values include 100 kB strings.
      const fieldMutants = keys.map((key) =>
        fc.tuple(
          fc.constant(key),
          mutantArbitrary(shape[key]!, depth + 1, path ? `${path}.${key}` : key),
        ),
      );
      const fieldMutation = fc
        .tuple(base, fc.oneof(...fieldMutants))
        .map(([valid, [key, mutant]]) => ({
          value: { ...valid, [key]: mutant.value },
          note: mutant.note,
        }));
      choices.push(fieldMutation, fieldMutation, fieldMutation);
    }
    const required = requiredKeys(core);
    if (required.length > 0)
      choices.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([valid, key]) => {
          const copy = { ...valid };
          delete copy[key];
          return { value: copy, note: `${path}${path ? '.' : ''}${key} removed` };
        }),
      );
    choices.push(
      fc
        .tuple(
          base,
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField', 'id; --'),
          fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, 'x', 1),
        )
        .map(([valid, key, value]) => ({
          value: withOwnKey(valid, key, value),
          note: `${path}${path ? '.' : ''}${key} added`,
        })),
    );
    return fc.oneof(...choices);
  }
  if (def.type === 'array' && def.element) {
    const item = mutantArbitrary(def.element, depth + 1, `${path}[]`);
    return fc.oneof(
      wholesale,
      item.map((mutant) => ({ value: [mutant.value], note: mutant.note })),
    );
  }
  return fc.oneof({ weight: 4, arbitrary: wholesale }, { weight: 1, arbitrary: anything });
}
