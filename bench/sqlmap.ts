import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestPostgresDatabase } from '@shuili/test-support/test-server';
import { writeResult } from './lib/results';
import { startServer } from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import {
  scanEndpoint,
  sqlmapVersion,
  type ScanResult,
  type SqlmapOptions,
} from './lib/sqlmap-scan';
import { sqlmapTargets, withLiveBaselines } from './lib/sqlmap-targets';

/**
 * SQL injection attempts with Debian's sqlmap (issue 7 part 3) against every list and search
 * endpoint of the real server, signed in as demo's admin: every query parameter (filters, sort
 * and order, paging, keywords) at level 3, risk 2, techniques BEUST, PostgreSQL payloads.
 * --smoke: one endpoint at level 1, risk 1.
 */
const FULL: SqlmapOptions = { level: 3, risk: 2, technique: 'BEUST', dbms: 'PostgreSQL' };
const SMOKE: SqlmapOptions = { level: 1, risk: 1, technique: 'BEUST', dbms: 'PostgreSQL' };
const SMOKE_ENDPOINT = '/api/admin/sysuser/querySysUser';

/** Runs `work` over `items`, at most `limit` at a time, answers in the items' order. */
async function inPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function runSqlmap(smoke: boolean) {
  const version = await sqlmapVersion();
  if (!version) throw new Error('sqlmap is not installed (Debian: apt-get install sqlmap)');
  const options = smoke ? SMOKE : FULL;
  const concurrency = smoke ? 1 : Number(process.env.SQLMAP_CONCURRENCY ?? 3);
  const database = process.env.TEST_DATABASE_URL ? await createTestPostgresDatabase() : undefined;
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-sqlmap-'));
  const started = performance.now();
  // A scan outlives the default 15-minute token and 30-minute idle timeout: longer ones here.
  const server = await startServer(
    {
      SIM: '0',
      ACCESS_TOKEN_SECONDS: '86400',
      SESSION_IDLE_SECONDS: '86400',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    1,
  );
  try {
    // demo's admin, and the platform's for the lists only it may read (tenants, app clients).
    const tokens = [await signIn(server.url), await signIn(server.url, 'platform')];
    const document = await (await fetch(`${server.url}/api/docs/json`)).json();
    const all = sqlmapTargets(document, server.url);
    const targets = await withLiveBaselines(
      smoke ? all.filter((target) => target.path === SMOKE_ENDPOINT) : all,
      tokens,
    );
    if (targets.length === 0) throw new Error('no list or search endpoint found in /api/docs/json');
    let done = 0;
    const endpoints: (ScanResult & { baselineStatus: number })[] = await inPool(
      targets,
      concurrency,
      async (target) => {
        const result = await scanEndpoint(target, target.token, options, workDir);
        done += 1;
        console.log(
          `[${done}/${targets.length}] ${target.path}: ${result.parameters.length} parameters, ` +
            `${result.requests} requests, ${result.seconds} s, ` +
            `${result.parameters.filter((parameter) => parameter.injectable).length} injectable`,
        );
        return { ...result, baselineStatus: target.baseline };
      },
    );
    // The server's own log (warnings and errors): an unhandled error is a finding too.
    const serverErrors = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":50'));
    const findings = endpoints.flatMap((endpoint) =>
      endpoint.parameters
        .filter((parameter) => parameter.injectable)
        .map((parameter) => ({
          path: endpoint.path,
          parameter: parameter.name,
          techniques: parameter.techniques,
        })),
    );
    const parameters = endpoints.flatMap((endpoint) => endpoint.parameters);
    const serverStatuses: Record<string, number> = {};
    for (const endpoint of endpoints)
      for (const [status, count] of Object.entries(endpoint.httpErrors))
        serverStatuses[status] = (serverStatuses[status] ?? 0) + count;
    const summary = {
      sqlmap: version,
      options,
      backend: database ? 'postgres' : 'pglite',
      endpoints: endpoints.length,
      parameters: parameters.length,
      parametersTested: parameters.filter((parameter) => parameter.tested).length,
      requests: endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0),
      /** Non-200 answers sqlmap saw, by status (400: the schema refused the payload). */
      errorStatuses: serverStatuses,
      serverErrorsLogged: serverErrors.length,
      findings,
      minutes: Math.round((performance.now() - started) / 6_000) / 10,
    };
    const file = await writeResult('sqlmap', smoke, {
      summary,
      serverErrors: serverErrors.slice(0, 20),
      endpoints,
    });
    return { file, summary };
  } finally {
    await server.stop();
    await database?.drop();
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
