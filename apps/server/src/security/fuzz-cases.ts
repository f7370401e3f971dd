import fc from 'fast-check';
import {
  BODY_LIMIT_BYTES,
  PARTS,
  type BodyForm,
  type FuzzCase,
  type FuzzRoute,
} from './fuzz-request';
import { deeplyNested, mutantArbitrary, validArbitrary, type Mutant } from './zod-arbitraries';

const langs = fc.constantFrom<'en' | 'zh'>('en', 'zh');

/** A part's value travels as JSON mostly, sometimes as a form or as plain text. */
function bodyFormOf(value: unknown, how: number): BodyForm {
  if (how === 1 && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const form = new URLSearchParams();
    for (const [key, item] of Object.entries(value))
      if (item !== undefined)
        form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    return {
      type: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      text: form.toString(),
    };
  }
  if (how === 2 && typeof value === 'string')
    return { type: 'raw', contentType: 'text/plain', text: value };
  return { type: 'json', value };
}

/** Values of every part a route reads, each valid or (for `target`) broken. */
function partsArbitrary(route: FuzzRoute, target?: (typeof PARTS)[number]) {
  const arbitraries = Object.fromEntries(
    PARTS.filter((part) => route.schemas[part]).map((part) => [
      part,
      part === target
        ? mutantArbitrary(route.schemas[part]!)
        : validArbitrary(route.schemas[part]!).map((value): Mutant => ({ value, note: '' })),
    ]),
  ) as Partial<Record<(typeof PARTS)[number], fc.Arbitrary<Mutant>>>;
  return fc.record(arbitraries);
}

function caseOf(
  parts: Partial<Record<(typeof PARTS)[number], Mutant>>,
  how: number,
  lang: 'en' | 'zh',
): FuzzCase {
  return {
    params: parts.params?.value as Record<string, unknown> | undefined,
    query: parts.querystring?.value,
    body: parts.body ? bodyFormOf(parts.body.value, how) : { type: 'absent' },
    lang,
    note: PARTS.map((part) => parts[part]?.note)
      .filter(Boolean)
      .join('; '),
  };
}

/** Requests with one part broken by a schema-derived mutation (the others valid). */
export function mutantCaseArbitrary(route: FuzzRoute): fc.Arbitrary<FuzzCase> {
  const targets = PARTS.filter((part) => route.schemas[part]);
  return fc
    .constantFrom(...targets)
    .chain((target) =>
      fc.tuple(partsArbitrary(route, target), fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 2), langs),
    )
    .map(([parts, how, lang]) => caseOf(parts, how, lang));
}

/** Requests whose every part is drawn from its schema's valid values, edges favoured. */
export function edgeCaseArbitrary(route: FuzzRoute): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(partsArbitrary(route), langs)
    .map(([parts, lang]) => ({ ...caseOf(parts, 0, lang), note: 'edge-case valid input' }));
}

const bigJsonString = JSON.stringify({ filler: 'x'.repeat(BODY_LIMIT_BYTES) });

/** Broken transports of a body: parser, media type and size refusals. */
export const BODY_TRANSPORT_CASES: { note: string; body: BodyForm }[] = [
  { note: 'no body at all', body: { type: 'absent' } },
  { note: 'empty JSON body', body: { type: 'raw', contentType: 'application/json', text: '' } },
  { note: 'JSON null', body: { type: 'json', value: null } },
  { note: 'JSON list', body: { type: 'json', value: [{}] } },
  { note: 'JSON string', body: { type: 'json', value: 'body' } },
  { note: 'JSON number', body: { type: 'json', value: 1e308 } },
  {
    note: 'truncated JSON',
    body: { type: 'raw', contentType: 'application/json', text: '{"name": "x' },
  },
  {
    note: '__proto__ pollution',
    body: {
      type: 'raw',
      contentType: 'application/json',
      text: '{"__proto__": {"isAdmin": true}}',
    },
  },
  {
    note: 'constructor.prototype pollution',
    body: {
      type: 'raw',
      contentType: 'application/json',
      text: '{"constructor": {"prototype": {"isAdmin": true}}}',
    },
  },
  {
    note: 'JSON nested 5000 deep',
    body: {
      type: 'raw',
      contentType: 'application/json',
      text: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    },
  },
  { note: 'object nested 200 deep', body: { type: 'json', value: deeplyNested(200) } },
  { note: 'plain text', body: { type: 'raw', contentType: 'text/plain', text: 'name=x' } },
  {
    note: 'form with a prototype key',
    body: {
      type: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      text: '__proto__=1&constructor=2',
    },
  },
  { note: 'XML', body: { type: 'raw', contentType: 'application/xml', text: '<a>1</a>' } },
  {
    note: 'multipart',
    body: {
      type: 'raw',
      contentType: 'multipart/form-data; boundary=x',
      text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    },
  },
  {
    note: 'JSON past the body limit',
    body: { type: 'raw', contentType: 'application/json', text: bigJsonString },
  },
  {
    note: 'JSON with a wrong charset',
    body: { type: 'raw', contentType: 'application/json; charset=utf-16', text: '{}' },
  },
];

/** Raw query strings that break the usual key=value shape. */
export const QUERY_TRANSPORT_CASES: { note: string; search: string }[] = [
  { note: 'prototype keys', search: '__proto__=1&constructor=x&__proto__%5Bpolluted%5D=1' },
  { note: 'bracketed keys', search: 'a%5Bb%5D=1&a%5B%5D=2' },
  { note: 'malformed percent encoding', search: 'name=%E0%A4%A&q=%' },
  { note: 'a NUL byte', search: 'name=a%00b&keyword=%00' },
  { note: 'a key without a value', search: 'currentPage&pageSize' },
  { note: 'a very long value', search: `keyword=${'x'.repeat(8_000)}` },
];
