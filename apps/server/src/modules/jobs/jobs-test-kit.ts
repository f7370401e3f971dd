import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { entityCalls, JOB_CALLS, jobInfoEntity, type JobInstanceDetail } from '@shuili/contract';
import { call } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';
import { expect } from 'vitest';
import type { Database } from '../../db/database';

/**
 * A local HTTP service the tests' webhook jobs call: `/ok` answers 200, `/fail` 500, `/slow`
 * holds the request until the caller gives up, `/hang-once` holds the first request of each
 * Idempotency-Key and answers the next. It records every request it received.
 */
export interface HookService {
  url: string;
  requests: Array<{ path: string; key: string | undefined; at: number }>;
  /** Requests whose caller went away before an answer (aborted by a stop or a timeout). */
  aborted: string[];
  close(): Promise<void>;
}

export async function startHookService(): Promise<HookService> {
  const requests: HookService['requests'] = [];
  const aborted: string[] = [];
  const held = new Set<string>();
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const key = request.headers['idempotency-key'] as string | undefined;
    requests.push({ path, key, at: Date.now() });
    request.resume();
    const hold = () => {
      open.add(response);
      response.on('close', () => {
        open.delete(response);
        if (!response.writableEnded) aborted.push(key ?? path);
      });
    };
    if (path === '/ok') return void response.writeHead(200).end('{"ok":true}');
    if (path === '/fail') return void response.writeHead(500).end('{"ok":false}');
    if (path === '/slow') return hold();
    if (path === '/hang-once') {
      if (key && !held.has(key)) {
        held.add(key);
        return hold();
      }
      return void response.writeHead(200).end('{"ok":true,"second":true}');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    aborted,
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A webhook job's fields (API-triggered unless the overrides say otherwise). */
export function webhookJob(
  hook: HookService,
  path: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    jobName: `webhook ${path} ${Math.random().toString(36).slice(2, 8)}`,
    timeExpressionType: 'API',
    executeType: 'STANDALONE',
    processorType: 'webhook',
    jobParams: JSON.stringify({
      url: `${hook.url}${path}`,
      method: 'POST',
      requestTimeoutMs: 60_000,
    }),
    retries: 0,
    timeout: 0,
    status: 1,
    ...overrides,
  };
}

const calls = entityCalls(jobInfoEntity);

/** Adds a job through the generic add call; answers its id (throws on a refusal). */
export async function addJob(
  server: Pick<TestServer, 'url'>,
  token: string,
  fields: Record<string, unknown>,
): Promise<string> {
  const added = await call(server, 'POST', calls.add, { token, body: fields });
  if (added.status !== 200)
    throw new Error(`add job: ${added.status} ${JSON.stringify(added.body)}`);
  const data = added.body.data as { id?: string } | string;
  return typeof data === 'object' ? String(data.id) : String(data);
}

export async function runJob(
  server: Pick<TestServer, 'url'>,
  token: string,
  id: string,
  instanceParams?: string,
): Promise<string> {
  const ran = await call(server, 'POST', JOB_CALLS.runJob, { token, body: { id, instanceParams } });
  if (ran.status !== 200) throw new Error(`run job: ${ran.status} ${JSON.stringify(ran.body)}`);
  return (ran.body.data as { instanceId: string }).instanceId;
}

export async function instanceDetail(
  server: Pick<TestServer, 'url'>,
  token: string,
  id: string,
): Promise<JobInstanceDetail> {
  const found = await call<{ data: JobInstanceDetail }>(
    server,
    'GET',
    JOB_CALLS.queryInstanceDetail,
    {
      token,
      query: { id },
    },
  );
  if (found.status !== 200)
    throw new Error(`detail: ${found.status} ${JSON.stringify(found.body)}`);
  return found.body.data;
}

/** Waits until an instance reaches a state (polling its details; no fixed sleeps). */
export async function untilInstance(
  server: Pick<TestServer, 'url'>,
  token: string,
  id: string,
  done: (detail: JobInstanceDetail) => boolean,
  timeoutMs = 30_000,
): Promise<JobInstanceDetail> {
  const deadline = Date.now() + timeoutMs;
  let last: JobInstanceDetail | undefined;
  while (Date.now() < deadline) {
    last = await instanceDetail(server, token, id);
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`instance ${id} did not get there: ${JSON.stringify(last)}`);
}

/** What a job firing every second made over a span of whole seconds (secondlyJobRun). */
export interface SecondlyRun {
  /** The first whole second of the span (ms). */
  start: number;
  seconds: number;
  /** The instances expected in the span, by expected time. */
  made: Array<{ expected: Date; node: string | null; status: string }>;
  /** Occurrences fired, by the node that fired them. */
  fired: Array<{ node: string; count: number }>;
  /** The webhook requests of the span's instances, by idempotency key. */
  keys: Array<string | undefined>;
}

/**
 * Exactly once across nodes (docs/jobs.md): saves a webhook job firing every second through
 * `server`, waits until the `seconds` whole seconds from its first occurrence after the save
 * have each run to success (every node on the database polls the trigger meanwhile), then
 * disables it. expectOncePerSecond checks what it answers.
 */
export async function secondlyJobRun(
  server: Pick<TestServer, 'url'>,
  db: Database,
  token: string,
  hook: HookService,
  seconds: number,
): Promise<SecondlyRun> {
  const id = await addJob(
    server,
    token,
    webhookJob(hook, '/ok', { timeExpressionType: 'CRON', timeExpression: '* * * * * ?' }),
  );
  const start = Math.ceil(Date.now() / 1000) * 1000 + 1000;
  const end = start + seconds * 1000;
  const instances = async () =>
    (
      await db.systemStatement<{ id: string; expected: Date; node: string | null; status: string }>(
        `SELECT id::text, expected_trigger_time AS expected, task_tracker_address AS node, status
           FROM job_instance WHERE job_id = $1 AND expected_trigger_time >= $2
            AND expected_trigger_time < $3 ORDER BY expected_trigger_time`,
        [id, new Date(start), new Date(end)],
      )
    ).rows;
  await expect
    .poll(async () => (await instances()).filter((one) => one.status === 'SUCCEED').length, {
      timeout: seconds * 1000 + 40_000,
      interval: 1_000,
    })
    .toBe(seconds);
  await call(server, 'POST', calls.status!, { token, body: { ids: [id], status: 0 } });
  const made = await instances();
  const fired = await db.systemStatement<{ node: string; count: number }>(
    `SELECT node, count(*)::int AS count FROM scheduler_run
      WHERE kind = 'job.fire' AND key = $1 AND fire_at >= $2 AND fire_at < $3 GROUP BY node`,
    [`job:${id}`, new Date(start), new Date(end)],
  );
  const ids = new Set(made.map((one) => `job-instance:${one.id}`));
  const keys = hook.requests.filter((one) => one.key && ids.has(one.key)).map((one) => one.key);
  return {
    start,
    seconds,
    made: made.map(({ expected, node, status }) => ({ expected, node, status })),
    fired: fired.rows,
    keys,
  };
}

/** One instance per second of the span, each fired once, each webhook request sent once. */
export function expectOncePerSecond(run: SecondlyRun): void {
  const { start, seconds, made, fired, keys } = run;
  expect(made).toHaveLength(seconds);
  const times = made.map((one) => new Date(one.expected).getTime());
  expect(new Set(times).size).toBe(seconds);
  expect(times).toEqual(Array.from({ length: seconds }, (_, index) => start + index * 1000));
  expect(fired.reduce((sum, row) => sum + row.count, 0)).toBe(seconds);
  expect(keys).toHaveLength(seconds);
  expect(new Set(keys).size).toBe(keys.length);
}

/** Which node ran how many of a run's instances. */
export function instancesByNode(run: SecondlyRun): Map<string, number> {
  const ran = new Map<string, number>();
  for (const one of run.made) ran.set(one.node!, (ran.get(one.node!) ?? 0) + 1);
  return ran;
}
