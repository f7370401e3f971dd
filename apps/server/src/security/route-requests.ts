import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { z } from 'zod';
import type { RouteEntry } from '../http/route-table';
import type { TestServer } from '@shuili/test-support/test-server';
import { fieldsOf, sampleValue, type SchemaField } from './zod-samples';

/** The parts of a request a route's schema describes. */
export type InputPart = 'querystring' | 'body' | 'params';
export const INPUT_PARTS: InputPart[] = ['querystring', 'body', 'params'];

/** One concrete request for a route. */
export interface RouteRequest {
  method: string;
  url: string;
  query: Record<string, string>;
  body?: unknown;
  /** Raw bytes instead of JSON (uploads). */
  raw?: { bytes: Buffer; type: string };
}

/** Every field a route reads from the client, with the part it arrives in. */
export function routeFields(route: RouteEntry): Array<SchemaField & { part: InputPart }> {
  const schema = (route.schema ?? {}) as Partial<Record<InputPart, unknown>>;
  return INPUT_PARTS.flatMap((part) => fieldsOf(schema[part]).map((field) => ({ ...field, part })));
}

/**
 * Chooses a field's value: a value to send, or undefined to leave the field to the sampler
 * (filled with a valid sample when required, left out when optional).
 */
export type ValueSource = (field: SchemaField & { part: InputPart }) => unknown;

/** A query string carries text: lists as comma-separated values. */
function asQueryValue(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/** The first of a few spellings of a value the field's schema accepts (an id or a list of it). */
function accepted(field: SchemaField & { part: InputPart }, value: unknown): unknown {
  const forms =
    field.part === 'body' ? [value, Array.isArray(value) ? value[0] : [value]] : [value];
  return forms.find((form) => field.schema.safeParse(form).success) ?? value;
}

/**
 * Builds a request for a route from its zod schemas: fields the source names get its values,
 * other required fields a valid sample. Answers a problem instead when the result does not
 * pass the route's own schemas (then the route would refuse it for the wrong reason).
 */
export function buildRequest(
  route: RouteEntry,
  source: ValueSource,
  raw?: RouteRequest['raw'],
): { request: RouteRequest; problem?: undefined } | { problem: string; request?: undefined } {
  const schema = (route.schema ?? {}) as Partial<Record<InputPart, z.ZodType>>;
  const values: Record<InputPart, Record<string, unknown>> = {
    querystring: {},
    body: {},
    params: {},
  };
  for (const field of routeFields(route)) {
    const chosen = source(field);
    if (chosen !== undefined) values[field.part][field.name] = accepted(field, chosen);
    else if (field.required) {
      const sample = sampleValue(field.schema, field.name);
      if (sample === undefined)
        return { problem: `no valid sample for ${field.part}.${field.name}` };
      values[field.part][field.name] = sample;
    }
  }
  const query = Object.fromEntries(
    Object.entries(values.querystring).map(([name, value]) => [name, asQueryValue(value)]),
  );
  for (const part of INPUT_PARTS) {
    const partSchema = schema[part];
    if (!partSchema) continue;
    const input =
      part === 'querystring'
        ? query
        : part === 'body' && Object.keys(values.body).length === 0
          ? undefined
          : values[part];
    const parsed = partSchema.safeParse(input);
    if (!parsed.success)
      return { problem: `${part} does not validate: ${parsed.error.message.slice(0, 300)}` };
  }
  let url = route.url;
  for (const [name, value] of Object.entries(values.params))
    url = url.replace(`:${name}`, encodeURIComponent(String(value)));
  const body = Object.keys(values.body).length > 0 ? values.body : undefined;
  const method = route.methods.includes('GET') ? 'GET' : route.methods[0]!;
  return { request: { method, url, query, body, raw } };
}

/** An answer as text: JSON as sent, exports (csv, xlsx, docx, pdf) as the text they show. */
export interface Answer {
  status: number;
  type: string;
  text: string;
  /** The parsed JSON answer, when it is JSON. */
  json?: { code?: number; message?: string; data?: unknown; errors?: unknown };
}

async function zipText(bytes: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  const parts = await Promise.all(
    Object.values(zip.files)
      .filter((file) => !file.dir && /\.(xml|rels)$/.test(file.name))
      .map((file) => file.async('string')),
  );
  return parts.join('\n');
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await pdf.destroy();
  return pages.join('\n');
}

/** Reads any answer's bytes as the text a person would see. */
async function textOf(type: string, bytes: Buffer): Promise<string> {
  if (bytes.length === 0) return '';
  if (type.includes('pdf')) return pdfText(bytes);
  if (type.includes('openxmlformats') || bytes.subarray(0, 2).toString() === 'PK')
    return zipText(bytes);
  return bytes.toString('utf8');
}

/** Sends a request as a caller (bearer token, or none) and reads the answer as text. */
export async function send(
  server: Pick<TestServer, 'url'>,
  request: RouteRequest,
  token: string | undefined,
): Promise<Answer> {
  const url = new URL(request.url, server.url);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
  const headers: Record<string, string> = { cookie: 'language=en' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: Buffer | string | undefined;
  if (request.raw) {
    headers['content-type'] = request.raw.type;
    body = request.raw.bytes;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const response = await fetch(url, { method: request.method, headers, body });
  const type = response.headers.get('content-type') ?? '';
  const text = await textOf(type, Buffer.from(await response.arrayBuffer()));
  let json: Answer['json'];
  if (type.includes('json')) {
    try {
      json = JSON.parse(text) as Answer['json'];
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, type, text, json };
}

/** A short description of a request, for failure messages. */
export function describeRequest(request: RouteRequest): string {
  const query = new URLSearchParams(request.query).toString();
  const body = request.raw
    ? ` <${request.raw.bytes.length} bytes>`
    : request.body
      ? ` ${JSON.stringify(request.body)}`
      : '';
  return `${request.method} ${request.url}${query ? `?${query}` : ''}${body}`.slice(0, 400);
}
