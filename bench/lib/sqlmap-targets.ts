/** What the OpenAPI document (/api/docs/json) says of one query parameter. */
interface QueryParameter {
  in: string;
  name: string;
  schema?: JsonSchema;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
}

export interface SqlmapTarget {
  path: string;
  /** The endpoint with a plausible value in every parameter (sqlmap needs a normal page). */
  url: string;
  parameters: string[];
}

/** Last resorts of a refused baseline: a time range's ends, an aggregate, a number. */
const GENERIC_CANDIDATES = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', 'avg', '1'];

/** Candidates for a text parameter, the first its pattern admits is used. */
const TEXT_CANDIDATES = ['admin', 'demo', '1', '2026-01-01T00:00:00.000Z', 'a'];

/** A value the parameter's schema accepts, so sqlmap's baseline page is a real answer. */
export function sampleValue(schema: JsonSchema | undefined): string {
  if (!schema) return '1';
  if (schema.anyOf) {
    const branch = schema.anyOf.find((option) => option.type !== 'null') ?? schema.anyOf[0];
    return sampleValue(branch);
  }
  if (schema.enum?.length) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number')
    return String(schema.default ?? schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
  const min = schema.minLength ?? 0;
  const text = TEXT_CANDIDATES.find(
    (candidate) => candidate.length >= min && (!pattern || pattern.test(candidate)),
  );
  return text ?? 'admin'.padEnd(min, 'x');
}

/**
 * Every list and search endpoint of the OpenAPI document: GET calls named query* that take
 * query parameters (filters, sort and order, paging, keywords).
 */
export function sqlmapTargets(document: unknown, baseUrl: string): SqlmapTarget[] {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const targets: SqlmapTarget[] = [];
  for (const [route, operations] of Object.entries(paths)) {
    if (!/\/query\w*$/.test(route)) continue;
    const get = operations.get as { parameters?: QueryParameter[] } | undefined;
    const parameters = (get?.parameters ?? []).filter((parameter) => parameter.in === 'query');
    if (parameters.length === 0) continue;
    const search = new URLSearchParams();
    for (const parameter of parameters) search.set(parameter.name, sampleValue(parameter.schema));
    targets.push({
      path: route,
      url: `${baseUrl}${route}?${search}`,
      parameters: parameters.map((parameter) => parameter.name),
    });
  }
  return targets;
}

type Fetcher = (url: string, token: string) => Promise<{ status: number; body: any }>;

/** Answers a GET as JSON (status and body), with the bearer token. */
export const fetchJson: Fetcher = async (url, token) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.json().catch(() => undefined);
  return { status: response.status, body };
};

/**
 * Makes each target's baseline a real answer, which sqlmap needs (it gives up on a 404 and
 * learns nothing where the baseline is already refused): the caller whose token is not refused
 * (some lists are the platform tenant's); then, while the answer is a 400 or 404, the parameter
 * it names (every one, for a 404) gets another value: blank, or the same-named column (or the
 * id of the list it names: `deviceId`, a device's id) from the first row of an unfiltered list.
 */
export async function withLiveBaselines(
  targets: SqlmapTarget[],
  tokens: string[],
  get: Fetcher = fetchJson,
): Promise<(SqlmapTarget & { token: string; baseline: number })[]> {
  const rows: { path: string; row: Record<string, unknown> }[] = [];
  for (const target of targets) {
    const unfiltered = `${target.url.split('?')[0]}?currentPage=1&pageSize=1`;
    const row = (await get(unfiltered, tokens[0]!)).body?.data?.list?.[0];
    if (row && typeof row === 'object') rows.push({ path: target.path, row });
  }
  const candidatesFor = (target: SqlmapTarget, name: string) => {
    const folder = target.path.slice(0, target.path.lastIndexOf('/') + 1);
    const named = name.endsWith('Id') ? name.slice(0, -2).toLowerCase() : undefined;
    const values = [
      ...rows.filter((found) => found.path.startsWith(folder)).map((found) => found.row[name]),
      ...rows.map((found) => found.row[name]),
      ...(named
        ? rows
            .filter((found) => found.path.toLowerCase().includes(named))
            .map((found) => found.row.id)
        : []),
    ];
    return [
      '',
      ...[
        ...new Set(values.filter((value) => value !== null && value !== undefined).map(String)),
      ].slice(0, 6),
      // The end of a range after its start.
      ...(/(end|to)$/i.test(name) ? [...GENERIC_CANDIDATES].reverse() : GENERIC_CANDIDATES),
    ];
  };
  const live = [];
  for (const target of targets) {
    let token = tokens[0]!;
    let answer = await get(target.url, token);
    for (const other of tokens.slice(1)) {
      if (answer.status !== 403) break;
      token = other;
      answer = await get(target.url, token);
    }
    const url = new URL(target.url);
    for (let round = 0; round < 4 && (answer.status === 400 || answer.status === 404); round += 1) {
      const named = new Set<string>(
        (answer.body?.errors ?? []).map((error: { field?: string }) => error.field),
      );
      const wrong = target.parameters.filter((name) => answer.status === 404 || named.has(name));
      if (wrong.length === 0) break;
      for (const name of wrong) {
        for (const candidate of candidatesFor(target, name)) {
          const trial = new URL(url);
          trial.searchParams.set(name, candidate);
          const tried = await get(trial.toString(), token);
          const stillNamed = (tried.body?.errors ?? []).some(
            (error: { field?: string }) => error.field === name,
          );
          if (tried.status === 200 || (tried.status === 400 && !stillNamed)) {
            url.searchParams.set(name, candidate);
            answer = tried;
            break;
          }
        }
      }
    }
    live.push({ ...target, url: url.toString(), token, baseline: answer.status });
  }
  return live;
}
