import type { z } from 'zod';
import { issuesToProblems } from '../http/validation-problems';
import type { RouteEntry } from '../http/route-table';

/** The input parts Fastify validates, in the order it validates them (it stops at the first). */
export const PARTS = ['params', 'body', 'querystring'] as const;
export type Part = (typeof PARTS)[number];

export type RouteSchemas = Partial<Record<Part, z.ZodType>>;

/** One route and one method of it, as the fuzzer calls it. */
export interface FuzzRoute {
  method: string;
  url: string;
  permission: RouteEntry['permission'];
  schemas: RouteSchemas;
}

/** How a body travels: not at all, as JSON, or as raw text of some content type. */
export type BodyForm =
  | { type: 'absent' }
  | { type: 'json'; value: unknown }
  | { type: 'raw'; contentType: string; text: string };

/** One generated request, before it is put on the wire. */
export interface FuzzCase {
  params?: Record<string, unknown>;
  query?: unknown;
  /** A raw query string, sent instead of `query` (shapes an object cannot encode). */
  search?: string;
  body: BodyForm;
  lang: 'en' | 'zh';
  /** What was broken, for the failure message. */
  note: string;
}

export interface WireRequest {
  method: string;
  /** Path and query string, exactly as sent. */
  path: string;
  contentType?: string;
  body?: string;
}

/**
 * What the server must answer, decided by the route's own zod schemas (and the JSON parser's
 * rules) reading exactly what goes on the wire.
 */
export type Expectation =
  | { kind: 'accepted' }
  | { kind: 'badJson' }
  | { kind: 'unsupportedMedia' }
  | { kind: 'tooLarge' }
  /**
   * Node refuses a request line past its header limit (431) before Fastify sees it; Fastify's
   * router a path parameter past its length limit (414).
   */
  | { kind: 'urlTooLong' }
  | { kind: 'invalid'; part: Part; fields: string[] }
  /** Junk for a route without schemas: any answer but a server error. */
  | { kind: 'survives' };

/** Fastify's body limit (app.ts); larger bodies get a 413 before anything reads them. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export function routesOf(entries: readonly RouteEntry[]): FuzzRoute[] {
  return entries.flatMap((entry) => {
    const schema = (entry.schema ?? {}) as Record<string, z.ZodType | undefined>;
    const schemas: RouteSchemas = {};
    for (const part of PARTS) if (schema[part]) schemas[part] = schema[part];
    return entry.methods.map((method) => ({
      method,
      url: entry.url,
      permission: entry.permission,
      schemas,
    }));
  });
}

/** A query object as repeated key=value pairs: lists repeat the key, objects travel as JSON. */
export function encodeQuery(query: unknown): string {
  if (query === undefined) return '';
  if (query === null || typeof query !== 'object' || Array.isArray(query))
    return new URLSearchParams({ [String(JSON.stringify(query))]: '' }).toString();
  const search = new URLSearchParams();
  const scalar = (value: unknown) =>
    typeof value === 'string'
      ? value
      : value === null || typeof value !== 'object'
        ? String(value)
        : JSON.stringify(value);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, scalar(item));
    else search.append(key, scalar(value));
  }
  return search.toString();
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * Parses a query string the way Fastify's parser (fast-querystring) does: repeated keys become
 * lists, a key without "=" has the empty value, and the result has no prototype.
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  const result = Object.create(null) as Record<string, string | string[]>;
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = decode(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : decode(pair.slice(equals + 1));
    const current = result[key];
    if (current === undefined) result[key] = value;
    else if (Array.isArray(current)) current.push(value);
    else result[key] = [current, value];
  }
  return result;
}

/** The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * A generated value as a path segment carries it: its text, as a client's URL template would
 * make it; an object whose own toString is no function (`{ toString: [] }`) has none, so its JSON.
 */
function pathText(value: unknown): string {
  if (value === undefined || value === null) return '';
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? '';
  }
}

export function toWire(route: FuzzRoute, input: FuzzCase): WireRequest {
  // A lone surrogate has no UTF-8 form: a client sends U+FFFD in its place, as this does.
  let path = route.url.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(wellFormed(pathText(input.params?.[name]))),
  );
  const search = input.search ?? encodeQuery(input.query);
  if (search) path += `?${search}`;
  if (input.body.type === 'json') {
    const text = JSON.stringify(input.body.value);
    if (text === undefined) return { method: route.method, path };
    return { method: route.method, path, contentType: 'application/json', body: text };
  }
  if (input.body.type === 'raw')
    return {
      method: route.method,
      path,
      contentType: input.body.contentType,
      body: input.body.text,
    };
  return { method: route.method, path };
}

/** The JSON parser refuses keys that could poison prototypes (Fastify's secure-json-parse). */
function parseJsonLikeFastify(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  let poisoned = false;
  let value: unknown;
  try {
    value = JSON.parse(text, function (key, child: unknown) {
      if (key === '__proto__') poisoned = true;
      if (
        key === 'constructor' &&
        child !== null &&
        typeof child === 'object' &&
        Object.hasOwn(child, 'prototype')
      )
        poisoned = true;
      return child;
    });
  } catch {
    return { ok: false };
  }
  return poisoned ? { ok: false } : { ok: true, value };
}

/** The body as Fastify hands it to validation, or why it never gets there. */
function bodyAsParsed(
  wire: WireRequest,
):
  | { kind: 'value'; value: unknown }
  | { kind: 'badJson' }
  | { kind: 'unsupportedMedia' }
  | { kind: 'tooLarge' } {
  if (wire.body === undefined) return { kind: 'value', value: undefined };
  if (Buffer.byteLength(wire.body) > BODY_LIMIT_BYTES) return { kind: 'tooLarge' };
  const type = (wire.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') {
    const parsed = parseJsonLikeFastify(wire.body);
    return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'badJson' };
  }
  if (type === 'text/plain') return { kind: 'value', value: wire.body };
  if (type === 'application/x-www-form-urlencoded')
    return { kind: 'value', value: parseQuery(wire.body) };
  return { kind: 'unsupportedMedia' };
}

/** The field names a 400 must carry for these zod issues (the server's own mapping). */
export function expectedFields(part: Part, issues: readonly z.core.$ZodIssue[]): string[] {
  // The same shape fastify-type-provider-zod gives the error handler.
  const problems = issuesToProblems(
    issues.map(({ path, code, message, ...params }) => ({
      keyword: code,
      instancePath: `/${path.join('/')}`,
      message,
      params,
    })),
    part,
  );
  return [...new Set(problems.map((problem) => problem.field))].sort();
}

/** Node's default limit of the request line and headers together (--max-http-header-size). */
const HEADER_LIMIT_BYTES = 16 * 1024;

/** Fastify's default longest path parameter (find-my-way's maxParamLength). */
const MAX_PARAM_LENGTH = 100;

/** What the server must answer to this request, by the route's schemas. */
export function expectationOf(route: FuzzRoute, wire: WireRequest): Expectation {
  if (wire.path.length > HEADER_LIMIT_BYTES) return { kind: 'urlTooLong' };
  // Near the limit the token and cookie headers decide: any answer but a 5xx will do.
  if (wire.path.length > HEADER_LIMIT_BYTES - 4096) return { kind: 'survives' };
  const queryStart = wire.path.indexOf('?');
  // Fastify's router answers 414 for a path parameter (decoded) past its maxParamLength, before
  // any schema looks at it.
  const rawPath = queryStart < 0 ? wire.path : wire.path.slice(0, queryStart);
  const segments = rawPath.split('/');
  if (
    route.url
      .split('/')
      .some(
        (name, index) =>
          name.startsWith(':') && decode(segments[index] ?? '').length > MAX_PARAM_LENGTH,
      )
  )
    return { kind: 'urlTooLong' };
  const body = bodyAsParsed(wire);
  if (body.kind !== 'value') return { kind: body.kind };
  const values: Record<Part, unknown> = {
    params: paramsOf(route.url, queryStart < 0 ? wire.path : wire.path.slice(0, queryStart)),
    body: body.value,
    querystring: parseQuery(queryStart < 0 ? '' : wire.path.slice(queryStart + 1)),
  };
  for (const part of PARTS) {
    const schema = route.schemas[part];
    if (!schema) continue;
    const result = schema.safeParse(values[part]);
    if (!result.success)
      return { kind: 'invalid', part, fields: expectedFields(part, result.error.issues) };
  }
  return { kind: 'accepted' };
}

function paramsOf(pattern: string, path: string): Record<string, string> {
  const names = pattern.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    if (name.startsWith(':')) params[name.slice(1)] = decode(values[index] ?? '');
  });
  return params;
}
