import {
  columnOf,
  DEFAULT_DICTS,
  ENTITIES,
  entityCalls,
  LANGUAGE_COOKIE,
  sysRoleEntity,
  sysUserEntity,
  translate,
  type EntityDef,
  type FieldDef,
  type Lang,
  type SqlType,
} from '@shuili/contract';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { neutraliseFormula } from '../modules/export/cell-text';
import { call, signIn, type CallOptions, type CallResult } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { storedFields } from './entity-ddl';
import {
  ENTITY_SAMPLES,
  type EntitySample,
  type SampleContext,
  type Unique,
  type Values,
} from './entity-samples';

/*
 * The one contract test over every declared entity (DESIGN §3): each entity in ENTITIES is
 * created, read, changed, exported, fed bad input, looked for from another tenant and called
 * without permission, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
 */

type Tenant = 'platform' | 'demo' | 'acme';
/** A demo user whose only role starts without any grant (created by the suite). */
type Who = Tenant | 'noGrant';
/** The code of that role. */
const NO_GRANT_ROLE = 'ROLE_NOGRANT';
type CallName = keyof ReturnType<typeof entityCalls>;

const EXPORTS = [
  { call: 'exportXlsx', format: 'xlsx', type: 'spreadsheetml' },
  { call: 'exportDocx', format: 'docx', type: 'wordprocessingml' },
  { call: 'exportPdf', format: 'pdf', type: 'application/pdf' },
  { call: 'exportCsv', format: 'csv', type: 'text/csv' },
] as const;
type ExportFormat = (typeof EXPORTS)[number]['format'];

/** An id no table holds. */
const UNKNOWN_ID = '987654321';
const MISSING = Symbol('missing');

const RUN = Array.from({ length: 3 }, () =>
  String.fromCharCode(97 + Math.floor(Math.random() * 26)),
).join('');
let sequence = 0;
/** Values no other call of this run uses. */
function unique(): Unique {
  sequence += 1;
  return { text: `${RUN}${sequence.toString(36)}x`, digits: String(sequence).padStart(8, '0') };
}

const sampleOf = (entity: EntityDef): EntitySample => {
  const sample = ENTITY_SAMPLES[entity.name];
  if (!sample) throw new Error(`entity ${entity.name} has no sample in entity-samples.ts`);
  return sample;
};

/** The admin who may write an entity: the platform's for platform and shared data. */
const ownerOf = (entity: EntityDef): Tenant => (entity.scope === 'tenant' ? 'demo' : 'platform');

const readOnly = (entity: EntityDef) => !entity.operations.add;

const statusFieldOf = (entity: EntityDef) =>
  Object.entries(entity.fields).find(([, field]) => field.kind === 'status')?.[0];

/** The value the delete call takes for a row (its id, or its code for regions and clients). */
const keyOf = (entity: EntityDef, row: Values) =>
  String(entity.key === 'id' ? row.id : row[entity.key]);

/** A key of this entity that no row has. */
const unknownKeyOf = (entity: EntityDef) =>
  entity.key === 'id' ? UNKNOWN_ID : entity.key === 'clientId' ? 'cnosuchclient' : '9999999999999';

/** What a tree child stores in its parent field: the parent's id, or its code for regions. */
const parentKeyOf = (entity: EntityDef, row: Values) =>
  entity.fields[entity.tree!.parent]!.ref ? String(row.id) : String(row[entity.key]);

/** A value as the API answers it, for comparing what was sent with what came back. */
function normal(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return null;
  if (field.sql === 'timestamptz') return new Date(String(value)).toISOString();
  if (field.link) return (value as unknown[]).map(String).sort();
  if (field.sql === 'bigint') return String(value);
  if (field.sql === 'integer' || field.sql === 'smallint') return Number(value);
  if (typeof value === 'string') return value.trim();
  return value;
}

/** Every sent value is answered as sent; write-only and virtual fields are never answered. */
function expectValues(entity: EntityDef, row: Values, values: Values, context: string) {
  for (const [name, value] of Object.entries(values)) {
    const field = entity.fields[name]!;
    if (field.writeOnly || field.virtual) {
      expect(row, `${context}: ${name} must not be answered`).not.toHaveProperty(name);
      continue;
    }
    expect(normal(field, row[name]), `${context}: ${name}`).toEqual(normal(field, value));
  }
}

/** No key anywhere in an answer looks like a password, hash or secret (except those allowed). */
function expectNoSecrets(value: unknown, allowed: string[] = [], path = 'data') {
  if (Array.isArray(value))
    value.forEach((item, i) => expectNoSecrets(item, allowed, `${path}.${i}`));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (!allowed.includes(key))
        expect(key, `${path}.${key} leaks a secret`).not.toMatch(/password|hash|secret/i);
      expectNoSecrets(inner, allowed, `${path}.${key}`);
    }
  }
}

const MESSAGE_KEY =
  /\b(validation|conflict|error|auth|export|field|status|common|account|register|captcha)\.[\w.]+/;
const CJK = /[\u3400-\u9fff]/;

/** A message a person can read in their language: no raw key, no unfilled placeholder. */
function expectTranslated(message: unknown, lang: Lang, context: string) {
  expect(typeof message === 'string' && message.trim().length > 0, `${context}: message`).toBe(
    true,
  );
  const text = String(message);
  expect(text, `${context}: message is an untranslated key`).not.toMatch(MESSAGE_KEY);
  expect(text, `${context}: message has an unfilled placeholder`).not.toMatch(/\{\w+\}/);
  if (lang !== 'en') expect(text, `${context}: message is not in ${lang}`).toMatch(CJK);
}

/** A 400 whose errors name the field with a translated message that mentions its label. */
function expectFieldError(
  result: CallResult,
  entity: EntityDef,
  field: string,
  lang: Lang,
  context: string,
  status = 400,
) {
  expect.soft(result.status, `${context}: ${JSON.stringify(result.body)}`).toBe(status);
  const errors: Array<{ field: string; message: string }> = Array.isArray(result.body?.errors)
    ? result.body.errors
    : [];
  const named = errors.find((error) => error.field === field);
  expect
    .soft(named, `${context}: no error names "${field}" in ${JSON.stringify(result.body)}`)
    .toBeDefined();
  if (!named) return;
  expect.soft(() => expectTranslated(named.message, lang, context)).not.toThrow();
  const label = entity.fields[field]?.label[lang];
  if (label) expect.soft(named.message, `${context}: the message names the field`).toContain(label);
  expect
    .soft(() => expectTranslated(result.body.message, lang, `${context} (headline)`))
    .not.toThrow();
}

/** Text for comparing PDF content, where lines wrap inside cells. */
const compact = (text: string) => text.replace(/\s+/g, '');

const dictNames = new Map(
  DEFAULT_DICTS.map((entry) => [`${entry.dictType}|${entry.dictValue}`, entry.label]),
);

/** A cell of an export as a person should read it, from the row the query answered. */
function expectedCell(
  entity: EntityDef,
  name: string,
  row: Values,
  lang: Lang,
): { text: string; numeric: boolean } | undefined {
  const field = entity.fields[name]!;
  const value = row[name];
  if (value === undefined) return undefined;
  if (value === null || value === '') return { text: '', numeric: false };
  let text: string;
  if (field.ref) text = String(row[`${name}Label`] ?? value);
  else if (field.link) {
    const labels = row[`${name}Label`];
    if (!Array.isArray(labels)) return undefined;
    text = labels.join(', ');
  } else if (field.options) {
    const values = Array.isArray(value) ? value : [value];
    text = values
      .map((one) => field.options!.find((option) => option.value === one)?.label[lang] ?? one)
      .join(', ');
  } else if (field.dictType)
    text = dictNames.get(`${field.dictType}|${String(value)}`)?.[lang] ?? String(value);
  else if (field.kind === 'status')
    text = translate(lang, value === 1 ? 'status.enabled' : 'status.disabled');
  else if (field.kind === 'switch') text = translate(lang, value ? 'common.yes' : 'common.no');
  else if (Array.isArray(value)) text = value.join(', ');
  else text = String(value);
  return { text, numeric: typeof value === 'number' };
}

/** The fields an export shows, in order. */
const exportedFields = (entity: EntityDef) =>
  Object.keys(entity.fields).filter(
    (name) => entity.fields[name]!.export && !entity.fields[name]!.writeOnly,
  );

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The header and data rows of a spreadsheet-like export (xlsx, csv) as text. */
async function tableOf(format: 'xlsx' | 'csv', buffer: Buffer): Promise<string[][]> {
  if (format === 'csv') {
    expect([...buffer.subarray(0, 3)], 'csv starts with a BOM').toEqual([0xef, 0xbb, 0xbf]);
    return parseCsv(buffer.subarray(3).toString('utf8'));
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(
      Array.from({ length: width }, (_, c) => {
        const value = row.getCell(c + 1).value;
        return value === null || value === undefined ? '' : String(value);
      }),
    );
  });
  return rows;
}

async function docxParagraphs(buffer: Buffer): Promise<string[]> {
  const zip = await JSZip.loadAsync(buffer);
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => unescape(m[1] ?? '')).join(''),
  );
}

async function pdfText(buffer: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let page = 1; page <= pdf.numPages; page++) {
    const content = await (await pdf.getPage(page)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join('\n');
}

/** Violations of one field's declared rules, each a value its rule must refuse. */
function violationsOf(
  field: FieldDef,
  valid: unknown,
  creating: boolean,
): Array<{ what: string; value: unknown }> {
  const out: Array<{ what: string; value: unknown }> = [];
  const add = (what: string, value: unknown) => out.push({ what, value });
  if (creating && field.required && field.defaultValue === undefined) add('missing', MISSING);
  if (field.required) add('null', null);
  const input = field.input as { maxLength?: number | null; minLength?: number | null };
  const example = typeof valid === 'string' && valid.length > 0 ? valid : 'x';
  const refused = (value: unknown) => !field.input.safeParse(value).success;
  switch (field.sql) {
    case 'text': {
      if (field.options) {
        add('a value not offered', 'nope');
        add('a number', 7);
        break;
      }
      add('a number', 12345);
      add('an object', { text: 'x' });
      const max = field.max ?? input.maxLength ?? undefined;
      if (max !== undefined && max !== null)
        add(`${max + 1} characters`, example.padEnd(max + 1, example.slice(-1)));
      const min = field.min ?? input.minLength ?? 0;
      if (min > 1) add(`${min - 1} characters`, example.slice(0, min - 1).padEnd(min - 1, 'x'));
      if (field.required) add('blank', '   ');
      if (field.pattern) {
        const breaker = ['!!!', 'has space', '1abc'].find(
          (candidate) => !new RegExp(field.pattern!.source).test(candidate),
        );
        if (breaker) add(`breaking ${field.pattern.source}`, breaker.padEnd(min, '!'));
      }
      // Whatever else the declared rule refuses (e-mail and mobile formats).
      for (const candidate of ['not-an-email', '13800138000', `${'a'.repeat(250)}@example.com`])
        if (!out.some((one) => one.value === candidate) && refused(candidate))
          add(`"${candidate.slice(0, 20)}"`, candidate);
      break;
    }
    case 'integer':
    case 'smallint': {
      const min = field.kind === 'status' ? 0 : (field.min ?? 0);
      const max = field.kind === 'status' ? 1 : (field.max ?? 1_000_000_000);
      add('not a number', 'abc');
      add('a boolean', true);
      add('a fraction', min + 0.5);
      add('below the minimum', min - 1);
      add('above the maximum', max + 1);
      break;
    }
    case 'double precision': {
      const min = field.min ?? -1e9;
      const max = field.max ?? 1e9;
      add('not a number', 'abc');
      add('a boolean', true);
      add('below the minimum', min - 1);
      add('above the maximum', max + 1);
      // Near the middle of the range, where a double still holds the extra digits.
      if (field.precision !== undefined)
        add(
          `more than ${field.precision} decimal places`,
          Math.round((min + max) / 2) + 10 ** -(field.precision + 2),
        );
      break;
    }
    case 'boolean':
      add('a string', 'yes');
      add('a number', 1);
      break;
    case 'timestamptz':
      add('not a date', 'yesterday');
      add('an impossible date', '2025-13-45T00:00:00Z');
      add('no offset', '2025-01-01 10:00');
      add('a number', 12345);
      break;
    case 'text[]': {
      add('not a list', 'api');
      add('a number in the list', [12]);
      if (field.options) add('a value not offered', ['bogus']);
      else add('an empty item', ['']);
      add(
        'too many items',
        Array.from({ length: 51 }, (_, i) => `item${i}`),
      );
      if (field.required) add('an empty list', []);
      break;
    }
    case 'bigint':
      if (field.link) {
        add('not a list', 'abc');
        add('a bad id in the list', ['abc']);
        add('an unknown id', [UNKNOWN_ID]);
        add(
          'too many ids',
          Array.from({ length: 201 }, (_, i) => String(i + 1)),
        );
        if (field.required) add('an empty list', []);
      } else {
        add('not an id', 'abc');
        add('a negative id', -1);
        add('too long an id', '1'.repeat(19));
        add('an unknown id', UNKNOWN_ID);
      }
      break;
  }
  return out;
}

const SQL_TYPES: Record<SqlType, { dataType: string; udt?: string }> = {
  text: { dataType: 'text' },
  smallint: { dataType: 'smallint' },
  integer: { dataType: 'integer' },
  bigint: { dataType: 'bigint' },
  boolean: { dataType: 'boolean' },
  timestamptz: { dataType: 'timestamp with time zone' },
  'numeric(14,2)': { dataType: 'numeric' },
  'double precision': { dataType: 'double precision' },
  jsonb: { dataType: 'jsonb' },
  'text[]': { dataType: 'ARRAY', udt: '_text' },
  'bigint[]': { dataType: 'ARRAY', udt: '_int8' },
};

interface Created {
  /** The row as the query answers it now. */
  row: Values;
  /** Everything sent so far (add, then updates). */
  values: Values;
  child?: Values;
}

describe.each(BACKENDS)('entity contract on $backend', ({ backend, available }) => {
  let server: TestServer;
  const tokens = {} as Record<Who, string>;
  const tenantIds = {} as Record<Tenant, string>;
  const contexts = {} as Record<Tenant, SampleContext>;
  const serverErrors: string[] = [];
  /** The id of NO_GRANT_ROLE in demo. */
  let noGrantRoleId = '';
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    const started = Date.now();
    server = await startTestServer({ backend });
    const [platform, demo, acme] = await Promise.all([
      signIn(server, 'platform', 'admin', 'admin123'),
      signIn(server, 'demo', 'admin', 'admin123'),
      signIn(server, 'acme', 'admin', 'admin123'),
    ]);
    Object.assign(tokens, {
      platform: platform.access_token,
      demo: demo.access_token,
      acme: acme.access_token,
    });
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string; tenant_code: Tenant }>(
        `SELECT id::text, tenant_code FROM tenant WHERE tenant_code IN ('platform', 'demo', 'acme')`,
      ),
    );
    for (const row of rows) tenantIds[row.tenant_code] = row.id;
    for (const tenant of ['platform', 'demo', 'acme'] as const)
      contexts[tenant] = sampleContext(tenant);
    // "Not granted" is a role of its own, created as demo's admin does, held by one user only:
    // the default roles start with grants of their own (DEFAULT_ROLE_GRANTS).
    const role = await api('demo', 'POST', entityCalls(sysRoleEntity).add, {
      body: { roleCode: NO_GRANT_ROLE, roleName: 'No grants' },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    noGrantRoleId = String(role.body.data.id);
    const user = await api('demo', 'POST', entityCalls(sysUserEntity).add, {
      body: {
        username: 'nogrant',
        nickname: 'No grants',
        password: 'nogrant-123',
        orgId: await contexts.demo.any('sys_org'),
        roleIds: [noGrantRoleId],
      },
    });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    tokens.noGrant = (await signIn(server, 'demo', 'nogrant', 'nogrant-123')).access_token;
    const held = await api('demo', 'GET', '/api/admin/sysurl/queryUrlIdByRoleId', {
      query: { roleId: noGrantRoleId },
    });
    expect(held.body.data, `${NO_GRANT_ROLE} starts without URLs`).toEqual([]);
    console.info(`[${backend}] server and sign-ins ready in ${Date.now() - started} ms`);
  });
  afterAll(async () => server?.close());

  /** Calls the API as someone; any 5xx is recorded and fails the run. */
  async function api(
    who: Who,
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<CallResult> {
    const result = await call(server, method, path, { token: tokens[who], ...options });
    if (result.status >= 500)
      serverErrors.push(`${who} ${method} ${path} ${JSON.stringify(options)} → ${result.status}`);
    return result;
  }

  /** Downloads an export as bytes. */
  async function download(who: Who, path: string, query: Record<string, string>, lang?: Lang) {
    const url = new URL(path, server.url);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[who]}` };
    if (lang) headers.cookie = `${LANGUAGE_COOKIE}=${lang}`;
    const response = await fetch(url, { method: 'POST', headers });
    const buffer = Buffer.from(await response.arrayBuffer());
    if (response.status >= 500) serverErrors.push(`${who} POST ${path} → ${response.status}`);
    return { status: response.status, headers: response.headers, buffer };
  }

  function sampleContext(tenant: Tenant): SampleContext {
    const cache = new Map<string, string>();
    const ctx: SampleContext = {
      async any(table) {
        const known = cache.get(table);
        if (known) return known;
        const { rows } = await server.db.system((sql) =>
          sql.query<{ id: string }>(
            `SELECT id::text FROM "${table}" WHERE tenant_id = $1 ORDER BY id LIMIT 1`,
            [tenantIds[tenant]],
          ),
        );
        // A device file is stored by an upload, never added: a tenant without one gets an image.
        const id =
          rows[0]?.id ??
          (table === 'iot_device_file'
            ? await ctx.imageOfKind('insect_trap')
            : await ctx.fresh(table));
        cache.set(table, id);
        return id;
      },
      async fresh(table) {
        const entity = ENTITIES.find((candidate) => candidate.table === table);
        if (!entity) throw new Error(`no entity is stored in ${table}`);
        const values = await sampleOf(entity).create(unique(), ctx);
        const added = await api(tenant, 'POST', entityCalls(entity).add, { body: values });
        if (added.status !== 200)
          throw new Error(`could not add ${entity.name}: ${JSON.stringify(added.body)}`);
        return String(added.body.data.id);
      },
      async deviceOfKind(kind) {
        const key = `device:${kind}`;
        const known = cache.get(key);
        if (known) return known;
        const { rows } = await server.db.system((sql) =>
          sql.query<{ device: string | null; product: string | null }>(
            `SELECT (SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
                      WHERE d.tenant_id = $1 AND p.device_kind = $2 ORDER BY d.id LIMIT 1) AS device,
                    (SELECT id::text FROM iot_product
                      WHERE tenant_id = $1 AND device_kind = $2 ORDER BY id LIMIT 1) AS product`,
            [tenantIds[tenant], kind],
          ),
        );
        const id = rows[0]?.device ?? (await addDevice(kind, rows[0]?.product ?? undefined));
        cache.set(key, id);
        return id;
      },
      async newDeviceOfKind(kind) {
        const { rows } = await server.db.system((sql) =>
          sql.query<{ id: string }>(
            `SELECT id::text FROM iot_product WHERE tenant_id = $1 AND device_kind = $2
              ORDER BY id LIMIT 1`,
            [tenantIds[tenant], kind],
          ),
        );
        return addDevice(kind, rows[0]?.id);
      },
      async imageOfKind(kind) {
        const key = `image:${kind}`;
        const known = cache.get(key);
        if (known) return known;
        const deviceId = await ctx.deviceOfKind(kind);
        const id = await server.db.system(async (sql) => {
          const { rows } = await sql.query<{ id: string }>(
            `SELECT id::text FROM iot_device_file WHERE device_id = $1 AND file_kind = 'image'
              ORDER BY id LIMIT 1`,
            [deviceId],
          );
          if (rows[0]) return rows[0].id;
          const added = await sql.query<{ id: string }>(
            `INSERT INTO iot_device_file (tenant_id, device_id, file_kind, original_name,
                                          content_type, size_kb, storage_key)
             VALUES ($1, $2, 'image', 'photo.png', 'image/png', 1, $3) RETURNING id::text`,
            [tenantIds[tenant], deviceId, `k${unique().text}`],
          );
          return added.rows[0]!.id;
        });
        cache.set(key, id);
        return id;
      },
    };
    /** A new device of the tenant's product of a kind, added through the API. */
    async function addDevice(kind: string, productId: string | undefined): Promise<string> {
      const device = ENTITIES.find((candidate) => candidate.table === 'iot_device')!;
      const values = await sampleOf(device).create(unique(), ctx);
      const added = await api(tenant, 'POST', entityCalls(device).add, {
        body: { ...values, productId },
      });
      if (added.status !== 200)
        throw new Error(`could not add a ${kind} device: ${JSON.stringify(added.body)}`);
      return String(added.body.data.id);
    }
    return ctx;
  }

  /**
   * How many rows the entity's table holds (all tenants). The operation log grows with every
   * write by design, so it is counted as the rows the sample's filter selects instead.
   */
  async function count(entity: EntityDef): Promise<number> {
    if (entity.name === 'OperationLog') return -1;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}"`),
    );
    return rows[0]!.n;
  }

  /** The query call filtered on the sample's search field. */
  function filterOf(entity: EntityDef, row: Values): Record<string, string> {
    const search = sampleOf(entity).search;
    return { [search]: String(row[search]) };
  }

  async function findRows(who: Who, entity: EntityDef, filter: Record<string, string>) {
    return api(who, 'GET', entityCalls(entity).query, { query: { ...filter, pageSize: '50' } });
  }

  /** Waits until no background work the last write started can still change the row. */
  async function settled(entity: EntityDef, id: string) {
    const busy = sampleOf(entity).busy;
    if (!busy) return;
    const deadline = Date.now() + 30_000;
    while (await server.db.system((sql) => busy(sql, id))) {
      if (Date.now() > deadline) throw new Error(`${entity.name} ${id}: still busy after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The row as its owner's admin reads it now (undefined when gone). */
  async function reread(entity: EntityDef, row: Values): Promise<Values | undefined> {
    await settled(entity, String(row.id));
    const found = await findRows(ownerOf(entity), entity, filterOf(entity, row));
    expect(found.status).toBe(200);
    return (found.body.data.list as Values[]).find((one) => one.id === row.id);
  }

  test('every declared entity has a sample, and every sample a declared entity', () => {
    const declared = ENTITIES.map((entity) => entity.name);
    expect(
      declared.filter((name) => !ENTITY_SAMPLES[name]),
      'entities without a sample',
    ).toEqual([]);
    expect(
      Object.keys(ENTITY_SAMPLES).filter((name) => !declared.includes(name)),
      'samples of no entity',
    ).toEqual([]);
    for (const entity of ENTITIES) {
      const sample = sampleOf(entity);
      expect(entity.fields[sample.search]?.search, `${entity.name}.${sample.search}`).toBeTruthy();
      expect(Boolean(sample.update), `${entity.name} update sample`).toBe(!readOnly(entity));
    }
  });

  describe('schema', () => {
    test('every declared column exists with its declared SQL type', async () => {
      const { rows } = await server.db.system((sql) =>
        sql.query<{
          table_name: string;
          column_name: string;
          data_type: string;
          udt_name: string;
          numeric_precision: number | null;
          numeric_scale: number | null;
          is_nullable: string;
        }>(
          `SELECT table_name, column_name, data_type, udt_name, numeric_precision, numeric_scale, is_nullable
             FROM information_schema.columns WHERE table_schema = 'public'`,
        ),
      );
      const columns = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
      let checked = 0;
      for (const entity of ENTITIES) {
        for (const [name, field, column] of storedFields(entity)) {
          const found = columns.get(`${entity.table}.${column}`);
          const at = `${entity.name}.${name} (${entity.table}.${column})`;
          expect.soft(found, `${at} is missing`).toBeDefined();
          if (!found) continue;
          const want = SQL_TYPES[field.sql];
          expect.soft(found.data_type, `${at} type`).toBe(want.dataType);
          if (want.udt) expect.soft(found.udt_name, `${at} element type`).toBe(want.udt);
          if (field.sql === 'numeric(14,2)')
            expect.soft([found.numeric_precision, found.numeric_scale], at).toEqual([14, 2]);
          checked += 1;
        }
        for (const column of ['id', 'created_at', 'updated_at'])
          expect
            .soft(columns.get(`${entity.table}.${column}`), `${entity.table}.${column}`)
            .toBeDefined();
        if (entity.scope === 'tenant') {
          const tenant = columns.get(`${entity.table}.tenant_id`);
          expect.soft(tenant?.is_nullable, `${entity.table}.tenant_id NOT NULL`).toBe('NO');
        }
        for (const field of Object.values(entity.fields)) {
          const link = field.link;
          if (!link) continue;
          for (const column of ['tenant_id', link.fromColumn, link.toColumn])
            expect
              .soft(columns.get(`${link.linkTable}.${column}`), `${link.linkTable}.${column}`)
              .toBeDefined();
        }
      }
      expect(checked).toBeGreaterThan(100);
    });

    test('every tenant-owned table (and link table) has row-level security on', async () => {
      const tables = ENTITIES.filter((entity) => entity.scope === 'tenant').flatMap((entity) => [
        entity.table,
        ...Object.values(entity.fields).flatMap((field) =>
          field.link ? [field.link.linkTable] : [],
        ),
      ]);
      const { rows } = await server.db.system((sql) =>
        sql.query<{ relname: string; relrowsecurity: boolean }>(
          `SELECT c.relname, c.relrowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname = ANY($1)`,
          [tables],
        ),
      );
      const secured = new Map(rows.map((row) => [row.relname, row.relrowsecurity]));
      for (const table of new Set(tables))
        expect.soft(secured.get(table), `${table} has row-level security`).toBe(true);
    });

    test('references are (tenant_id, id) foreign keys, so none can reach another tenant', async () => {
      const { rows } = await server.db.system((sql) =>
        sql.query<{ table: string; target: string; columns: string[]; targets: string[] }>(
          `SELECT cl.relname AS table, ft.relname AS target,
                  ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS columns,
                  ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
                          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS targets
             FROM pg_constraint c
             JOIN pg_class cl ON cl.oid = c.conrelid
             JOIN pg_class ft ON ft.oid = c.confrelid
            WHERE c.contype = 'f'`,
        ),
      );
      const has = (table: string, column: string, target: string) =>
        rows.some(
          (row) =>
            row.table === table &&
            row.target === target &&
            row.columns.join() === `tenant_id,${column}` &&
            row.targets.join() === 'tenant_id,id',
        );
      let checked = 0;
      for (const entity of ENTITIES.filter((candidate) => candidate.scope === 'tenant')) {
        for (const [name, field] of Object.entries(entity.fields)) {
          if (field.ref) {
            const column = columnOf(name, field);
            expect
              .soft(has(entity.table, column, field.ref.table), `${entity.name}.${name}`)
              .toBe(true);
            checked += 1;
          }
          if (field.link) {
            const link = field.link;
            expect
              .soft(
                has(link.linkTable, link.fromColumn, entity.table),
                `${link.linkTable}.${link.fromColumn}`,
              )
              .toBe(true);
            expect
              .soft(
                has(link.linkTable, link.toColumn, link.table),
                `${link.linkTable}.${link.toColumn}`,
              )
              .toBe(true);
            checked += 2;
          }
        }
      }
      expect(checked).toBeGreaterThan(10);
    });

    test('a SysUser of demo whose orgId is an organisation of acme is refused: 400 naming orgId', async () => {
      const user = ENTITIES.find((entity) => entity.name === 'SysUser')!;
      const values = await sampleOf(user).create(unique(), contexts.demo);
      const acmeOrg = await contexts.acme.any('sys_org');
      const before = await count(user);
      const result = await api('demo', 'POST', entityCalls(user).add, {
        body: { ...values, orgId: acmeOrg },
      });
      expectFieldError(result, user, 'orgId', 'en', 'orgId of acme');
      expect(await count(user)).toBe(before);
    });

    test('no reference of any entity may point into another tenant, on add or update: 400 naming the field', async () => {
      let checked = 0;
      for (const entity of ENTITIES.filter((one) => one.scope === 'tenant' && !readOnly(one))) {
        const calls = entityCalls(entity);
        for (const [name, field] of Object.entries(entity.fields)) {
          const target = field.ref ?? field.link;
          if (!target || !field.form || field.readOnly) continue;
          const context = `${entity.name}.${name} → acme's ${target.table}`;
          const foreign = await contexts.acme.any(target.table);
          const value = field.link ? [foreign] : foreign;
          const values = await sampleOf(entity).create(unique(), contexts.demo);
          const before = await count(entity);
          const added = await api('demo', 'POST', calls.add, {
            body: { ...values, [name]: value },
          });
          expectFieldError(added, entity, name, 'en', `add ${context}`);
          expect.soft(await count(entity), `${context}: nothing written`).toBe(before);
          // The same values with their own tenant's reference are fine; then the update tries.
          const valid = await api('demo', 'POST', calls.add, { body: values });
          expect(valid.status, JSON.stringify(valid.body)).toBe(200);
          const updated = await api('demo', 'PUT', calls.update, {
            body: { id: valid.body.data.id, [name]: value },
            lang: 'zh',
          });
          expectFieldError(updated, entity, name, 'zh', `update ${context}`);
          const found = await findRows('demo', entity, filterOf(entity, valid.body.data));
          const row = (found.body.data.list as Values[]).find(
            (one) => one.id === valid.body.data.id,
          );
          expect
            .soft(normal(field, row?.[name]), `${context}: unchanged`)
            .toEqual(normal(field, values[name]));
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(8);
    });
  });

  describe.each(ENTITIES.map((entity, index) => ({ name: entity.name, entity, index })))(
    '$name',
    ({ entity, index }) => {
      const calls = entityCalls(entity);
      const owner = ownerOf(entity);
      const state = {} as Created;
      const ctx = () => contexts[owner];
      const sample = () => sampleOf(entity);
      const statusField = statusFieldOf(entity);

      // Every check after the first works on the row the first one made.
      beforeEach(({ task }) => {
        if (!state.row && !/^(add answers|a row written|query and export refuse)/.test(task.name))
          throw new Error(
            `no ${entity.name} row to check: the first check of ${entity.name} failed`,
          );
      });

      /** The row must be as it was (after a refused call). */
      async function expectUnchanged(context: string) {
        const now = await reread(entity, state.row);
        expect(now, `${context}: the row is unchanged`).toEqual(state.row);
      }

      if (readOnly(entity)) {
        test('a row written by the server is found through query with a filter', async () => {
          const values = await sample().create(unique(), ctx());
          const stored = storedFields(entity).filter(([name]) => name in values);
          const id = await server.db.tenant(tenantIds.demo, async (sql) => {
            const write = sample().write;
            if (write) return write(sql, tenantIds.demo, values);
            const { rows } = await sql.query<{ id: string }>(
              `INSERT INTO "${entity.table}" (tenant_id, ${stored.map(([, , column]) => `"${column}"`).join(', ')})
               VALUES ($1, ${stored.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id::text`,
              [tenantIds.demo, ...stored.map(([name]) => values[name])],
            );
            return rows[0]!.id;
          });
          const found = await findRows('demo', entity, {
            [sample().search]: String(values[sample().search]),
          });
          expect(found.status).toBe(200);
          expect(found.body.data).toMatchObject({ total: 1, currentPage: 1, pageSize: 50 });
          const row = found.body.data.list[0] as Values;
          expect(row.id).toBe(id);
          expectValues(entity, row, values, 'query');
          expectNoSecrets(found.body.data);
          state.row = row;
          state.values = values;
        });

        test('the add, update, delete and status calls are not mounted (404)', async () => {
          const before = await count(entity);
          for (const [name, method] of [
            ['add', 'POST'],
            ['update', 'PUT'],
            ['delete', 'POST'],
            ['status', 'POST'],
          ] as const) {
            const result = await api('demo', method, calls[name], {
              body:
                name === 'delete'
                  ? undefined
                  : { id: state.row.id, ids: [state.row.id], status: 0 },
              query: name === 'delete' ? { id: String(state.row.id) } : undefined,
            });
            expect.soft(result.status, `${method} ${calls[name]}`).toBe(404);
          }
          expect(await count(entity)).toBe(before);
          await expectUnchanged('after unmounted calls');
        });
      } else {
        test('add answers 200 with the values sent and no secret', async () => {
          const values = await sample().create(unique(), ctx());
          const before = await count(entity);
          const added = await api(owner, 'POST', calls.add, { body: values });
          expect(added.status, JSON.stringify(added.body)).toBe(200);
          expect(added.body.code).toBe(200);
          const row = added.body.data as Values;
          expect(row.id).toMatch(/^\d+$/);
          expectValues(entity, row, values, 'add');
          if (entity.name === 'AppClient') {
            expect(String(row.clientSecret)).toMatch(/^[\w-]{24,}$/);
            expectNoSecrets(row, ['clientSecret']);
          } else expectNoSecrets(row);
          expect(await count(entity)).toBe(before + 1);
          state.values = values;
          state.row = row;
        });

        test('query finds it with a filter on a search field, paged', async () => {
          await settled(entity, String(state.row.id));
          const found = await findRows(owner, entity, filterOf(entity, state.row));
          expect(found.status).toBe(200);
          expect(found.body.data).toMatchObject({ total: 1, currentPage: 1, pageSize: 50 });
          const row = found.body.data.list[0] as Values;
          expect(row.id).toBe(state.row.id);
          expectValues(entity, row, state.values, 'query');
          expectNoSecrets(found.body.data);
          state.row = row;
          // The default page and a page past the end.
          const paged = await api(owner, 'GET', calls.query, {
            query: { ...filterOf(entity, row), currentPage: '2', pageSize: '1' },
          });
          expect(paged.body.data).toMatchObject({
            list: [],
            total: 1,
            currentPage: 2,
            pageSize: 1,
          });
        });

        test('update changes one field, and the change reads back', async () => {
          const change = await sample().update!(unique(), ctx());
          const updated = await api(owner, 'PUT', calls.update, {
            body: { id: state.row.id, ...change },
          });
          expect(updated.status, JSON.stringify(updated.body)).toBe(200);
          expectValues(entity, updated.body.data, { ...state.values, ...change }, 'update answer');
          expectNoSecrets(updated.body.data);
          state.values = { ...state.values, ...change };
          // Read back by the changed values (the search field may be the one changed).
          const now = await reread(entity, { ...state.row, ...updated.body.data });
          expect(now).toBeDefined();
          expectValues(entity, now!, state.values, 'after update');
          state.row = now!;
        });

        if (statusField) {
          test('the status call disables and enables it', async () => {
            for (const status of [0, 1]) {
              const result = await api(owner, 'POST', calls.status, {
                body: { ids: [state.row.id], status },
              });
              expect(result.status, JSON.stringify(result.body)).toBe(200);
              expect(result.body.data).toEqual({ updated: 1 });
              const filtered = await findRows(owner, entity, {
                ...filterOf(entity, state.row),
                [statusField]: String(status),
              });
              expect(filtered.body.data.total, `filtered by ${statusField}=${status}`).toBe(1);
              expect(filtered.body.data.list[0][statusField]).toBe(status);
              const other = await findRows(owner, entity, {
                ...filterOf(entity, state.row),
                [statusField]: String(1 - status),
              });
              expect(other.body.data.total, `filtered by ${statusField}=${1 - status}`).toBe(0);
            }
            state.row = (await reread(entity, state.row))!;
          });
        }

        if (entity.tree) {
          const tree = entity.tree;
          test('a child lists under its parent in the tree call; the parent cannot go first (409)', async () => {
            const parentKey = parentKeyOf(entity, state.row);
            const values = {
              ...(await sample().create(unique(), ctx())),
              [tree.parent]: parentKey,
            };
            const added = await api(owner, 'POST', calls.add, { body: values });
            expect(added.status, JSON.stringify(added.body)).toBe(200);
            expect(String(added.body.data[tree.parent])).toBe(parentKey);
            state.child = added.body.data;

            const level = await api(owner, 'GET', calls.tree, { query: { parentId: parentKey } });
            expect(level.status).toBe(200);
            expect((level.body.data as Values[]).map((node) => node.id)).toEqual([state.child!.id]);
            expect(level.body.data[0].hasChildren).toBe(false);

            const parent = await reread(entity, state.row);
            expect(parent?.hasChildren, 'hasChildren of the parent').toBe(true);
            const roots = await api(owner, 'GET', calls.tree);
            expect(roots.status).toBe(200);
            const root = (roots.body.data as Values[]).find((node) => node.id === state.row.id);
            expect(root, 'the parent is a root').toBeDefined();
            expect(root!.hasChildren).toBe(true);

            const before = await count(entity);
            const refused = await api(owner, 'POST', calls.delete, {
              query: { [entity.key]: keyOf(entity, state.row) },
              lang: 'zh',
            });
            expect(refused.status, JSON.stringify(refused.body)).toBe(409);
            expectTranslated(refused.body.message, 'zh', 'delete parent');
            expect(await count(entity)).toBe(before);
            state.row = parent!;
          });
        }
      }

      // Every format in English; one format per entity (in turn) in Chinese as well.
      EXPORTS.forEach(({ call: exportCall, format, type }, formatIndex) => {
        const langs: Lang[] = index % EXPORTS.length === formatIndex ? ['en', 'zh'] : ['en'];
        test(`exports the filtered row as ${format} (${langs.join(', ')})`, async () => {
          for (const lang of langs) {
            const file = await download(
              owner,
              calls[exportCall],
              filterOf(entity, state.row),
              lang,
            );
            expect(file.status, file.buffer.toString('utf8').slice(0, 300)).toBe(200);
            expect(file.headers.get('content-type')).toContain(type);
            expect(file.headers.get('content-disposition')).toMatch(/attachment/);
            expect(file.headers.get('content-disposition')).toContain(`.${format}`);
            await expectExport(format, file.buffer, lang);
          }
        });
      });

      /** The file holds the header (labels in the language) and exactly the filtered row. */
      async function expectExport(format: ExportFormat, buffer: Buffer, lang: Lang) {
        const names = exportedFields(entity);
        const labels = names.map((name) => entity.fields[name]!.label[lang]);
        const cells = names.map((name) => expectedCell(entity, name, state.row, lang));
        const search = sampleOf(entity).search;
        const marker = expectedCell(entity, search, state.row, lang)!;
        if (lang === 'zh') expect(labels.join(''), 'some header is Chinese').toMatch(CJK);
        if (format === 'xlsx' || format === 'csv') {
          const rows = await tableOf(format, buffer);
          expect(rows[0], `${format} ${lang} header`).toEqual(labels);
          expect(rows.length, `${format}: one data row`).toBe(2);
          const row = rows[1]!;
          names.forEach((name, i) => {
            const cell = cells[i];
            if (!cell) return;
            const want = cell.numeric ? cell.text : neutraliseFormula(cell.text);
            expect.soft(row[i], `${format} ${lang} ${name}`).toBe(want);
          });
          expect(row).toContain(neutraliseFormula(marker.text));
        } else if (format === 'docx') {
          const paragraphs = await docxParagraphs(buffer);
          expect(paragraphs[0], 'docx title').toBe(entity.title[lang]);
          for (const label of labels)
            expect.soft(paragraphs, `docx ${lang} header`).toContain(label);
          names.forEach((name, i) => {
            const cell = cells[i];
            if (cell?.text) expect.soft(paragraphs, `docx ${lang} ${name}`).toContain(cell.text);
          });
        } else {
          const text = compact(await pdfText(buffer));
          expect(text, 'pdf title').toContain(compact(entity.title[lang]));
          for (const label of labels)
            expect.soft(text, `pdf ${lang} header`).toContain(compact(label));
          names.forEach((name, i) => {
            const cell = cells[i];
            if (cell?.text && cell.text.length <= 60)
              expect.soft(text, `pdf ${lang} ${name}`).toContain(compact(cell.text));
          });
        }
      }

      test('query and export refuse bad paging, sorting and filters: 400 naming the parameter', async () => {
        const bad: Array<[string, string]> = [
          ['pageSize', '0'],
          ['pageSize', '100001'],
          ['currentPage', 'abc'],
          ['sort', 'nope'],
          ['order', 'sideways'],
        ];
        for (const [name, field] of Object.entries(entity.fields)) {
          if (field.search === 'in') bad.push([name, 'a b'], [name, 'a,,b']);
          else if (field.search === 'range')
            bad.push([`${name}From`, 'yesterday'], [`${name}To`, '2025-13-45']);
          else if (field.search && (field.sql === 'bigint' || field.link)) bad.push([name, 'abc']);
          else if (field.search && (field.sql === 'integer' || field.sql === 'smallint'))
            bad.push([name, 'abc']);
          else if (field.search && field.sql === 'boolean') bad.push([name, 'maybe']);
        }
        for (const [name, value] of bad) {
          const result = await api(owner, 'GET', calls.query, {
            query: { [name]: value },
            lang: 'zh',
          });
          expectFieldError(result, entity, name, 'zh', `query ${name}=${value}`);
        }
        if (entity.operations.export) {
          const file = await api(owner, 'POST', calls.exportCsv, { query: { sort: 'nope' } });
          expectFieldError(file, entity, 'sort', 'en', 'export sort=nope');
        }
        if (entity.tree && entity.fields[entity.tree.parent]!.ref) {
          const result = await api(owner, 'GET', calls.tree, { query: { parentId: 'abc' } });
          expectFieldError(result, entity, 'parentId', 'en', 'tree parentId=abc');
        }
      });

      if (!readOnly(entity)) {
        let validBody: Values | undefined;
        let badInputs = 0;
        /** A valid add body the bad-input cases spoil one field at a time (never written). */
        const valid = async () => (validBody ??= await sample().create(unique(), ctx()));

        /** After refused writes: the row is as it was, updatedAt included. */
        async function expectRowKept(context: string) {
          const now = await reread(entity, state.row);
          expect.soft(now, `${context}: the row still exists`).toBeDefined();
          const { updatedAt: _was, ...was } = state.row;
          const { updatedAt: _is, ...is } = now ?? {};
          expect.soft(is, `${context}: the row is unchanged`).toEqual(was);
          expect
            .soft(now?.updatedAt, `${context}: updatedAt is unchanged`)
            .toBe(state.row.updatedAt);
          // Later checks compare with the row as it is now, so one defect is reported once.
          if (now) state.row = now;
        }

        const form = Object.entries(entity.fields).filter(
          ([, field]) => field.form && !field.readOnly,
        );
        for (const [name, field] of form) {
          test(`bad ${name} on add and update: 400 naming it, translated; nothing written`, async () => {
            const body = await valid();
            const before = await count(entity);
            for (const { what, value } of violationsOf(field, body[name], true)) {
              const spoiled = { ...body };
              if (value === MISSING) delete spoiled[name];
              else spoiled[name] = value;
              const result = await api(owner, 'POST', calls.add, { body: spoiled });
              expectFieldError(result, entity, name, 'en', `add ${name} ${what}`);
              badInputs += 1;
              if (result.status === 200) {
                // Accepted by mistake: take it away again so later cases stay independent.
                await api(owner, 'POST', calls.delete, {
                  query: { [entity.key]: keyOf(entity, result.body.data) },
                });
              }
            }
            const updates = field.createOnly
              ? [{ what: 'create-only', value: body[name] }]
              : violationsOf(field, body[name], false);
            for (const { what, value } of updates) {
              const result = await api(owner, 'PUT', calls.update, {
                body: { id: state.row.id, [name]: value },
                lang: 'zh',
              });
              expectFieldError(result, entity, name, 'zh', `update ${name} ${what}`);
              badInputs += 1;
              if (result.status === 200) {
                // Accepted by mistake: put the value back so later cases stay independent.
                await api(owner, 'PUT', calls.update, {
                  body: { id: state.row.id, [name]: state.row[name] ?? null },
                });
              }
            }
            expect(await count(entity), 'nothing written').toBe(before);
            await expectRowKept(`bad ${name}`);
          });
        }

        test('bad ids, server-set and unknown fields, bad status bodies: 400; nothing written', async () => {
          const body = await valid();
          const before = await count(entity);
          // Fields the server sets, and fields nobody declared, are refused too.
          const extras = [
            ...Object.entries(entity.fields)
              .filter(([, field]) => field.readOnly || !field.form)
              .map(([name]) => name),
            'bogusField',
          ];
          for (const name of extras) {
            const added = await api(owner, 'POST', calls.add, { body: { ...body, [name]: '1' } });
            expectFieldError(added, entity, name, 'en', `add with ${name}`);
            const updated = await api(owner, 'PUT', calls.update, {
              body: { id: state.row.id, [name]: '1' },
            });
            expectFieldError(updated, entity, name, 'en', `update with ${name}`);
            badInputs += 2;
          }
          for (const id of ['abc', '', '1'.repeat(19), -1]) {
            const result = await api(owner, 'PUT', calls.update, { body: { id } });
            expectFieldError(result, entity, 'id', 'en', `update id=${JSON.stringify(id)}`);
            badInputs += 1;
          }
          const noId = await api(owner, 'PUT', calls.update, { body: {} });
          expectFieldError(noId, entity, 'id', 'en', 'update without id');
          const broken = await api(owner, 'PUT', calls.update, { body: '{"id": ' });
          expect.soft(broken.status, 'update with broken JSON').toBe(400);
          expectTranslated(broken.body?.message, 'en', 'broken JSON');
          if (entity.key === 'id') {
            const result = await api(owner, 'POST', calls.delete, { query: { id: 'abc' } });
            expectFieldError(result, entity, 'id', 'en', 'delete id=abc');
          }
          const noKey = await api(owner, 'POST', calls.delete);
          expectFieldError(noKey, entity, entity.key, 'en', 'delete without a key');
          badInputs += 4;
          if (statusField && entity.operations.status) {
            for (const status of [
              { ids: [state.row.id], status: 2 },
              { ids: [], status: 0 },
              { ids: [state.row.id] },
              { ids: ['abc'], status: 0 },
            ]) {
              const result = await api(owner, 'POST', calls.status, { body: status });
              expect.soft(result.status, `status ${JSON.stringify(status)}`).toBe(400);
              expect
                .soft(result.body.errors?.length, `status ${JSON.stringify(status)} errors`)
                .toBeGreaterThan(0);
              badInputs += 1;
            }
          }
          console.info(`[${backend}] ${entity.name}: ${badInputs} bad inputs`);
          expect(await count(entity), 'nothing written').toBe(before);
          await expectRowKept('bad ids and fields');
        });

        const uniqueKeys = [
          ...Object.entries(entity.fields)
            .filter(([, field]) => field.unique)
            .map(([name]) => [name]),
          ...(entity.uniqueTogether ?? []),
        ];
        if (uniqueKeys.length > 0)
          test(`a unique value (${uniqueKeys.map((key) => key.join('+')).join(', ')}) is refused a second time: 409 naming it`, async () => {
            const keys = uniqueKeys;
            const before = await count(entity);
            for (const key of keys) {
              if (key.some((name) => state.values[name] === undefined)) continue;
              const values = await sample().create(unique(), ctx());
              for (const name of key) values[name] = state.values[name];
              const result = await api(owner, 'POST', calls.add, { body: values, lang: 'zh' });
              expectFieldError(result, entity, key[0]!, 'zh', `second ${key.join('+')}`, 409);
            }
            expect(await count(entity)).toBe(before);
          });

        test('unknown ids: update, delete and status answer 404; a batch with one is refused whole', async () => {
          const before = await count(entity);
          const change = await sample().update!(unique(), ctx());
          const update = await api(owner, 'PUT', calls.update, {
            body: { id: UNKNOWN_ID, ...change },
          });
          expect.soft(update.status, JSON.stringify(update.body)).toBe(404);
          expectTranslated(update.body.message, 'en', 'update unknown');
          const unknown = unknownKeyOf(entity);
          const remove = await api(owner, 'POST', calls.delete, {
            query: { [entity.key]: unknown },
            lang: 'zh',
          });
          expect.soft(remove.status, JSON.stringify(remove.body)).toBe(404);
          expectTranslated(remove.body.message, 'zh', 'delete unknown');
          const batch = await api(owner, 'POST', calls.delete, {
            query: { [entity.key]: `${keyOf(entity, state.row)},${unknown}` },
          });
          expect.soft(batch.status, JSON.stringify(batch.body)).toBe(404);
          const viaBody = await api(owner, 'POST', calls.delete, {
            body: { [entity.key]: `${keyOf(entity, state.row)},${unknown}` },
          });
          expect.soft(viaBody.status, JSON.stringify(viaBody.body)).toBe(404);
          if (statusField && entity.operations.status) {
            const status = await api(owner, 'POST', calls.status, {
              body: { ids: [UNKNOWN_ID], status: 0 },
            });
            expect.soft(status.status, JSON.stringify(status.body)).toBe(404);
            const both = await api(owner, 'POST', calls.status, {
              body: { ids: [state.row.id, UNKNOWN_ID], status: 0 },
            });
            expect.soft(both.status, JSON.stringify(both.body)).toBe(404);
          }
          expect(await count(entity)).toBe(before);
          await expectUnchanged('after unknown ids');
        });
      }

      test('another tenant cannot see or touch the row', async () => {
        const before = await count(entity);
        const filter = filterOf(entity, state.row);
        const id = String(state.row.id);
        const key = keyOf(entity, state.row);
        const change = readOnly(entity) ? {} : await sample().update!(unique(), ctx());
        // Platform data: no other tenant may call at all; shared data: others read but never write.
        const outsiders: Array<Tenant> = entity.scope === 'platform' ? ['acme', 'demo'] : ['acme'];
        for (const who of outsiders) {
          const read = await findRows(who, entity, filter);
          if (entity.scope === 'platform') {
            expect.soft(read.status, `${who} query`).toBe(403);
          } else {
            expect.soft(read.status, `${who} query`).toBe(200);
            const ids = (read.body.data?.list ?? []).map((row: Values) => row.id);
            if (entity.scope === 'shared')
              expect.soft(ids, `${who} reads shared data`).toEqual([id]);
            else expect.soft(ids, `${who} sees no row of demo`).toEqual([]);
          }
          const writeStatus = entity.scope === 'tenant' ? 404 : 403;
          if (!readOnly(entity)) {
            const update = await api(who, 'PUT', calls.update, { body: { id, ...change } });
            expect
              .soft(update.status, `${who} update: ${JSON.stringify(update.body)}`)
              .toBe(writeStatus);
            const remove = await api(who, 'POST', calls.delete, { query: { [entity.key]: key } });
            expect
              .soft(remove.status, `${who} delete: ${JSON.stringify(remove.body)}`)
              .toBe(writeStatus);
            if (entity.scope !== 'tenant') {
              const values = await sample().create(unique(), ctx());
              const add = await api(who, 'POST', calls.add, { body: values });
              expect.soft(add.status, `${who} add`).toBe(403);
            }
          }
          if (statusField && entity.operations.status) {
            const status = await api(who, 'POST', calls.status, { body: { ids: [id], status: 0 } });
            expect
              .soft(status.status, `${who} status: ${JSON.stringify(status.body)}`)
              .toBe(writeStatus);
          }
          if (entity.tree) {
            const level = await api(who, 'GET', calls.tree, {
              query: { parentId: parentKeyOf(entity, state.row) },
            });
            if (entity.scope === 'platform') expect.soft(level.status).toBe(403);
            else {
              expect.soft(level.status, `${who} tree`).toBe(200);
              const ids = (level.body.data ?? []).map((row: Values) => row.id);
              if (entity.scope === 'shared') expect.soft(ids).toEqual([state.child?.id]);
              else expect.soft(ids, `${who} sees no child of demo`).toEqual([]);
            }
          }
          const file = await download(who, calls.exportCsv, filter);
          if (entity.scope === 'platform') expect.soft(file.status, `${who} export`).toBe(403);
          else {
            expect.soft(file.status, `${who} export`).toBe(200);
            const rows = await tableOf('csv', file.buffer);
            expect
              .soft(rows.length - 1, `${who} export rows`)
              .toBe(entity.scope === 'shared' ? 1 : 0);
          }
        }
        expect(await count(entity)).toBe(before);
        await expectUnchanged('after another tenant tried');
      });

      const perTenantUniques = [
        ...Object.entries(entity.fields)
          .filter(([, field]) => field.unique)
          .map(([name]) => name),
        ...(entity.uniqueTogether ?? []).flat(),
      ].filter((name) => !entity.fields[name]!.ref);
      if (entity.scope === 'tenant' && !readOnly(entity) && perTenantUniques.length > 0) {
        test(`unique values (${perTenantUniques.join(', ')}) are per tenant: acme may use demo’s`, async () => {
          const values = await sample().create(unique(), contexts.acme);
          for (const name of perTenantUniques) values[name] = state.values[name];
          const added = await api('acme', 'POST', calls.add, { body: values });
          expect(added.status, JSON.stringify(added.body)).toBe(200);
          await expectUnchanged('after acme used the same values');
        });
      }

      test('without the URL grant every call is 403; one granted URL opens exactly that call', async () => {
        const id = String(state.row.id);
        const filter = filterOf(entity, state.row);
        const change = readOnly(entity) ? {} : await sample().update!(unique(), ctx());
        const requests: Array<{ name: CallName; method: string; options: CallOptions }> = [
          { name: 'query', method: 'GET', options: { query: filter } },
        ];
        if (entity.operations.add)
          requests.push({
            name: 'add',
            method: 'POST',
            options: { body: await sample().create(unique(), ctx()) },
          });
        if (entity.operations.update)
          requests.push({ name: 'update', method: 'PUT', options: { body: { id, ...change } } });
        if (entity.operations.delete)
          requests.push({
            name: 'delete',
            method: 'POST',
            options: { query: { [entity.key]: keyOf(entity, state.row) } },
          });
        if (entity.operations.status && statusField)
          requests.push({
            name: 'status',
            method: 'POST',
            options: { body: { ids: [id], status: 1 } },
          });
        if (entity.tree)
          requests.push({
            name: 'tree',
            method: 'GET',
            options: { query: { parentId: parentKeyOf(entity, state.row) } },
          });
        if (entity.operations.export)
          for (const { call: name } of EXPORTS)
            requests.push({ name, method: 'POST', options: { query: filter } });
        expect(requests.length).toBe(
          1 +
            Number(entity.operations.add) +
            Number(entity.operations.update) +
            Number(entity.operations.delete) +
            Number(entity.operations.status && Boolean(statusField)) +
            Number(Boolean(entity.tree)) +
            (entity.operations.export ? 4 : 0),
        );
        const perform = (request: (typeof requests)[number], lang?: Lang) =>
          api('noGrant', request.method, calls[request.name], { ...request.options, lang });

        const before = await count(entity);
        for (const request of requests) {
          const result = await perform(request, 'zh');
          expect.soft(result.status, `${NO_GRANT_ROLE} ${request.name}`).toBe(403);
          expect
            .soft(result.body?.message, `${NO_GRANT_ROLE} ${request.name}`)
            .toBe(translate('zh', 'auth.forbidden'));
        }
        expect(await count(entity)).toBe(before);
        await expectUnchanged(`after ${NO_GRANT_ROLE} was refused`);

        // Grant one URL (a different kind of call per entity), as an administrator does.
        const grantable = requests.filter((request) =>
          ['query', 'exportCsv', 'update', 'status', 'tree'].includes(request.name),
        );
        const granted = grantable[index % grantable.length]!;
        const url = calls[granted.name];
        await setNoGrantRoleUrl(url, true);
        // Platform data stays the platform's, and shared data is written by the platform only.
        const passes =
          entity.scope === 'tenant' ||
          (entity.scope === 'shared' && ['query', 'exportCsv', 'tree'].includes(granted.name));
        for (const request of requests) {
          const result = await perform(request);
          if (request !== granted) {
            expect.soft(result.status, `not granted ${request.name}`).toBe(403);
            continue;
          }
          expect.soft(result.status, `granted ${request.name} (${url})`).toBe(passes ? 200 : 403);
          if (!passes)
            expect
              .soft(result.body?.message, 'the platform rule refuses it')
              .toBe(translate('en', 'auth.platformOnly'));
        }
        if (granted.name === 'update' && passes) {
          state.values = { ...state.values, ...change };
          state.row = (await reread(entity, { ...state.row, ...change }))!;
          expectValues(entity, state.row, state.values, `${NO_GRANT_ROLE} update`);
        } else if (granted.name === 'status' && passes)
          state.row = (await reread(entity, state.row))!;
        await setNoGrantRoleUrl(url, false);
        const revoked = await perform(granted);
        expect.soft(revoked.status, `revoked ${granted.name}`).toBe(403);
        expect(await count(entity)).toBe(before);
        await expectUnchanged('after the grant was revoked');
      });

      /**
       * Grants or revokes one URL to NO_GRANT_ROLE the way the console does: the role's URL list
       * is read, changed by one and written back with authorizeUrlToRole.
       */
      async function setNoGrantRoleUrl(url: string, on: boolean) {
        const urls = await api('demo', 'GET', '/api/admin/sysurl/querySysUrl', {
          query: { url, pageSize: '100' },
        });
        const urlId = (urls.body.data.list as Values[]).find((row) => row.url === url)?.id;
        expect(urlId, `${url} is a URL permission of demo`).toBeDefined();
        const roleId = noGrantRoleId;
        const held = await api('demo', 'GET', '/api/admin/sysurl/queryUrlIdByRoleId', {
          query: { roleId },
        });
        expect(held.status).toBe(200);
        const before = held.body.data as string[];
        expect(before.includes(String(urlId)), `${url} granted before`).toBe(!on);
        const urlIds = on ? [...before, urlId] : before.filter((id) => id !== urlId);
        const written = await api('demo', 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
          body: { roleId, urlIds },
        });
        expect(written.status, JSON.stringify(written.body)).toBe(200);
      }

      if (!readOnly(entity)) {
        test('delete removes it (with its child in one batch); a second delete is 404', async () => {
          const keys = [state.child, state.row].filter(Boolean).map((row) => keyOf(entity, row!));
          const before = await count(entity);
          const removed = await api(owner, 'POST', calls.delete, {
            query: { [entity.key]: keys.join(',') },
          });
          expect(removed.status, JSON.stringify(removed.body)).toBe(200);
          expect(removed.body.data).toEqual({ deleted: keys.length });
          expect(await count(entity)).toBe(before - keys.length);
          expect(await reread(entity, state.row)).toBeUndefined();
          const again = await api(owner, 'POST', calls.delete, {
            query: { [entity.key]: keys[0]! },
          });
          expect(again.status).toBe(404);
        });
      }
    },
  );

  test('no call answered 5xx', () => {
    expect(serverErrors).toEqual([]);
  });
});
