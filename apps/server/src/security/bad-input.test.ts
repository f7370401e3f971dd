import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshIp, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { changedTables, fingerprint, pauseScheduledJobs } from './database-fingerprint';
import { answerProblems, type Answer } from './fuzz-checks';
import {
  BODY_TRANSPORT_CASES,
  QUERY_TRANSPORT_CASES,
  edgeCaseArbitrary,
  mutantCaseArbitrary,
} from './fuzz-cases';
import {
  PARTS,
  expectationOf,
  routesOf,
  toWire,
  type Expectation,
  type FuzzCase,
  type FuzzRoute,
  type WireRequest,
} from './fuzz-request';
import { firstValid } from './zod-arbitraries';

/**
 * Issue 7 part 3: every route's own zod schemas generate bad and edge-case input (fast-check),
 * sent over HTTP to the real server as the demo admin (public routes without a token).
 *
 * - Refused input (the schema itself says no): a 400 in the envelope, translated (en and zh),
 *   naming exactly the fields the schema names; and nothing written (fingerprints of every
 *   table, taken every few routes).
 * - Edge-case valid input (longest strings, bounds, odd text, largest ids): never a 5xx.
 * - Routes that read no input: junk bodies and queries, never a 5xx.
 *
 * Sizes (per route): FUZZ_RUNS generated mutants (default 40; about two thirds are refused,
 * the rest accepted and replayed, up to 10), FUZZ_TRANSPORT of the 17 broken bodies and 6 broken
 * query strings (default 6 and 3, a window that moves on by one a route, so every broken form
 * meets hundreds of routes), and FUZZ_EDGE_RUNS valid edges (default 10; exports, which render
 * every row, 3). Refused input is sent to PGlite only (REFUSED_ON); valid edges and accepted
 * mutants go to each backend, each with a seed of its own. With 709 routes (2026-11-27) the
 * refused phase sent 52,892 requests in 539 s at 100 mutants and every broken form a route: the
 * longest file of `npm test` by far, on a machine that CI shares with the browser tests. The
 * defaults keep every route and every broken form in each run at a third of that.
 * FUZZ_SEED replays a run; FUZZ_RUNS=400 FUZZ_TRANSPORT=all sends hundreds a route.
 */
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Broken bodies a route gets (query strings: half as many), or every one with 'all'. */
const TRANSPORT_PER_ROUTE =
  process.env.FUZZ_TRANSPORT === 'all' ? Infinity : Number(process.env.FUZZ_TRANSPORT ?? 6);
const EDGE_RUNS = Number(process.env.FUZZ_EDGE_RUNS ?? 10);
const EXPORT_EDGE_RUNS = Math.min(EDGE_RUNS, 3);
const JUNK_RUNS = Math.max(5, Math.round(FUZZ_RUNS / 4));
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
/** PostgreSQL's seed is this far from PGlite's (above any route index a seed is added to). */
const BACKEND_SEED_OFFSET = 1_000_000;
/** Mutants the schema turned out to accept are replayed in the edge phase, this many a route. */
const DEFERRED_PER_ROUTE = 10;
/** Routes between two fingerprints (one takes ~0.2 s): a change names a batch, not a route. */
const ROUTES_PER_FINGERPRINT = 40;

/** Routes never fuzzed, each with the reason (a stale entry fails the suite). */
const EXEMPT = new Map<string, string>([
  [
    'POST /api/uaa/oauth/logout',
    'ends the fuzzer’s own session; it reads nothing but the bearer token',
  ],
  [
    'POST /api/account/session/signOutEverywhere',
    'ends every session of the caller, the fuzzer’s included; it reads nothing but the token',
  ],
]);

/**
 * Counterexamples the fuzzer found, kept so they stay fixed. Each was a 500 or a 400 that named
 * no field; `expected` is what the server answers now.
 */
const REGRESSIONS: { route: string; input: FuzzCase; expected: Expectation; was: string }[] = [
  {
    route: 'POST /api/admin/sysorg/exportWordSysOrg',
    input: { query: { parentId: ' ' }, body: { type: 'absent' }, lang: 'en', note: 'blank parent' },
    expected: { kind: 'invalid', part: 'querystring', fields: ['parentId'] },
    was: '500: the tree filter compared a bigint column with text',
  },
  {
    route: 'POST /api/admin/systenant/addSysTenant',
    input: {
      body: {
        type: 'raw',
        contentType: 'application/json',
        text: '{"tenantCode":"fuzz","tenantName":"Fuzz","adminUsername":"fuzzer","adminPassword":"Fuzz-2026!","constructor":{"polluted":true}}',
      },
      lang: 'zh',
      note: 'unknown key "constructor"',
    },
    expected: { kind: 'invalid', part: 'body', fields: ['constructor'] },
    was: "500: the error handler's label lookup found Object.prototype.constructor",
  },
  {
    route: 'POST /api/admin/sysdatapermission/exportDataPermission',
    input: {
      query: { description: 'a\u0000b' },
      body: { type: 'absent' },
      lang: 'en',
      note: 'NUL',
    },
    expected: { kind: 'invalid', part: 'querystring', fields: ['description'] },
    was: '500: PostgreSQL text cannot hold U+0000',
  },
  {
    route: 'POST /api/admin/sysorg/addSysOrg',
    input: {
      body: { type: 'json', value: { orgName: 'Fuzz', orgType: '!', status: null } },
      lang: 'en',
      note: 'blank status',
    },
    expected: { kind: 'accepted' },
    was: '500: a blank status went into a NOT NULL column instead of its default',
  },
  {
    route: 'PUT /api/admin/sysmenu/updateSysMenu',
    input: {
      // Menu 64 is one of demo's seeded menus (a fresh database numbers them alike).
      body: { type: 'json', value: { id: '64', menuStatus: null } },
      lang: 'en',
      note: 'blank menu status',
    },
    expected: { kind: 'accepted' },
    was: '500: a blank status was written into its NOT NULL column instead of its default',
  },
  {
    route: 'GET /api/account/sysuserdetail/queryCurrentOrgs',
    input: {
      query: { currentPage: '922337203685479' },
      body: { type: 'absent' },
      lang: 'zh',
      note: 'a page past bigint',
    },
    expected: { kind: 'invalid', part: 'querystring', fields: ['currentPage'] },
    was: '500: the page offset overflowed bigint',
  },
  {
    route: 'POST /api/account/sysuserdetail/retrievePassword',
    input: { body: { type: 'absent' }, lang: 'en', note: 'no body' },
    // Its params may come in the query or the body (spec §7): neither names the missing ones.
    expected: { kind: 'invalid', part: 'body', fields: ['charCaptcha', 'email'] },
    was: '400 naming the field "" with the message " is invalid"',
  },
];

const keyOf = (route: Pick<FuzzRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;
const hasSchema = (route: FuzzRoute) => PARTS.some((part) => route.schemas[part]);
const isExport = (route: FuzzRoute) => /\/export\w*$/.test(route.url);

const clip = (text: string | undefined, length = 300) =>
  text === undefined ? '' : text.length > length ? `${text.slice(0, length)}…` : text;

function report(
  route: FuzzRoute,
  input: FuzzCase,
  wire: WireRequest,
  expectation: Expectation,
  answer: Answer,
  problems: string[],
) {
  return [
    `${keyOf(route)}: ${problems.join('; ')}`,
    `  input: ${input.note || '(no note)'} [${input.lang}]`,
    `  sent: ${wire.method} ${clip(wire.path)} ${wire.contentType ?? ''} ${clip(wire.body)}`,
    `  expected: ${JSON.stringify(expectation)}`,
    `  got: ${answer.status} ${clip(JSON.stringify(answer.body))}`,
  ].join('\n');
}

/**
 * The backend that is sent refused input: PGlite, always there. A refused input is the route
 * schema's to refuse before any handler or query runs, so the database behind makes no
 * difference to it; sending the same 50,000 requests to the second backend took 7 minutes of
 * every CI run and tested nothing new.
 */
const REFUSED_ON = BACKENDS[0]!.backend;

/** `size` items of `list` from `start` on, wrapping round (all of it when size covers it). */
function windowOf<T>(list: readonly T[], start: number, size: number): T[] {
  if (size >= list.length) return [...list];
  return Array.from({ length: size }, (_, offset) => list[(start + offset) % list.length]!);
}

describe.each(BACKENDS)('bad input on $backend', ({ backend, available }) => {
  // Each backend gets inputs of its own: its valid edges and accepted mutants differ.
  const seed = SEED + (backend === 'postgres' ? BACKEND_SEED_OFFSET : 0);
  let server: TestServer;
  let token = '';
  const routes: FuzzRoute[] = [];
  const visited = new Set<string>();
  const deferred = new Map<string, FuzzCase[]>();
  const signedOutBy: string[] = [];
  const tally = {
    refusedSent: 0,
    edgeSent: 0,
    junkSent: 0,
    statuses: {} as Record<number, number>,
    /** Milliseconds spent on each route, to see what the suite's time goes to. */
    msByRoute: new Map<string, number>(),
  };

  beforeAll(async () => {
    if (!available) return;
    // A slow machine must not see the fuzzer's token expire mid-run.
    server = await startTestServer({ backend, config: { accessTokenSeconds: 3600 } });
    await pauseScheduledJobs(server.db);
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    routes.push(...routesOf(server.app.routeTable));
  });
  afterAll(async () => {
    if (!available) return;
    const schemaRoutes = routes.filter(hasSchema).length;
    console.log(
      `bad input on ${backend}: ${schemaRoutes} routes fuzzed from their schemas, ` +
        `${routes.length - schemaRoutes - EXEMPT.size} without input fuzzed with junk, ` +
        `${EXEMPT.size} exempt; inputs sent: ${tally.refusedSent} refused, ` +
        `${tally.edgeSent} edge-case valid, ${tally.junkSent} junk ` +
        `(${tally.refusedSent + tally.edgeSent + tally.junkSent} in all); ` +
        `statuses ${JSON.stringify(tally.statuses)}`,
    );
    const slowest = [...tally.msByRoute]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([key, ms]) => `${key} ${Math.round(ms)} ms`);
    console.log(`slowest routes: ${slowest.join(', ')}`);
    await server?.close();
  });

  /** Sends one case as the route's caller and checks the answer against the expectation. */
  async function exchange(route: FuzzRoute, input: FuzzCase, expectation?: Expectation) {
    const started = performance.now();
    const wire = toWire(route, input);
    const expected = expectation ?? expectationOf(route, wire);
    const answer = await call(server, wire.method, wire.path, {
      token: route.permission === 'public' ? undefined : token,
      // A fresh address a request: per-address limits of public routes stay out of the way.
      ip: freshIp(),
      lang: input.lang,
      headers: wire.contentType ? { 'content-type': wire.contentType } : {},
      body: wire.body,
    });
    tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
    const spent = performance.now() - started;
    tally.msByRoute.set(keyOf(route), (tally.msByRoute.get(keyOf(route)) ?? 0) + spent);
    visited.add(keyOf(route));
    const problems = answerProblems(expected, answer, input.lang);
    if (problems.length > 0)
      throw new Error(report(route, input, wire, expected, answer, problems));
  }

  /**
   * Whether the fuzzer is still signed in after a route's inputs. Refused input and junk must
   * never end a session (failing names the route); a valid input may (an admin resetting a
   * password ends that user's sessions), so then the fuzzer signs in again and says so.
   */
  async function stillSignedIn(route: FuzzRoute, phase: 'refused' | 'junk' | 'edge') {
    const me = await call(server, 'GET', '/api/uaa/users/getSysUser', { token });
    if (me.status === 200) return;
    if (phase !== 'edge')
      throw new Error(
        `${phase} input to ${keyOf(route)} ended the fuzzer's session (${me.status})`,
      );
    signedOutBy.push(`${keyOf(route)} (${me.status})`);
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  }

  /**
   * Sends a case the schema refuses (unless `send` is false); one it accepts is kept for the
   * edge phase instead.
   */
  async function refused(route: FuzzRoute, input: FuzzCase, send = true) {
    const expectation = expectationOf(route, toWire(route, input));
    if (expectation.kind === 'accepted') {
      const kept = deferred.get(keyOf(route)) ?? [];
      if (kept.length < DEFERRED_PER_ROUTE) kept.push(input);
      deferred.set(keyOf(route), kept);
      return;
    }
    if (!send) return;
    tally.refusedSent += 1;
    await exchange(route, input, expectation);
  }

  /** The route's mutants of this backend's seed, each refused or kept (see `refused`). */
  async function mutants(route: FuzzRoute, seedOfRoute: number, send: boolean) {
    await fc.assert(
      fc.asyncProperty(mutantCaseArbitrary(route), (input) => refused(route, input, send)),
      { numRuns: FUZZ_RUNS, seed: seedOfRoute },
    );
  }

  /** Valid values of a route's other parts, to go beside a broken transport. */
  function validParts(route: FuzzRoute) {
    return {
      params: route.schemas.params ? firstValid(route.schemas.params) : undefined,
      query: route.schemas.querystring ? firstValid(route.schemas.querystring) : undefined,
      body: route.schemas.body
        ? { type: 'json' as const, value: firstValid(route.schemas.body) }
        : { type: 'absent' as const },
    } as Pick<FuzzCase, 'params' | 'query' | 'body'>;
  }

  /**
   * Fixed cases: broken transports of the parts the route reads, a window of each list that
   * starts `routeIndex` along it (the whole list with FUZZ_TRANSPORT=all).
   */
  function transportCases(route: FuzzRoute, routeIndex: number): FuzzCase[] {
    const valid = validParts(route);
    const cases: FuzzCase[] = [];
    if (route.schemas.body)
      windowOf(BODY_TRANSPORT_CASES, routeIndex, TRANSPORT_PER_ROUTE).forEach(
        ({ note, body }, index) =>
          cases.push({ ...valid, body, note, lang: index % 2 ? 'zh' : 'en' }),
      );
    if (route.schemas.querystring)
      windowOf(QUERY_TRANSPORT_CASES, routeIndex, Math.ceil(TRANSPORT_PER_ROUTE / 2)).forEach(
        ({ note, search }, index) =>
          cases.push({ ...valid, search, note, lang: index % 2 ? 'zh' : 'en' }),
      );
    return cases;
  }

  it.skipIf(!available)('every route is fuzzed from its schema, fuzzed with junk or exempt', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const key of EXEMPT.keys())
      expect(
        routes.some((route) => keyOf(route) === key),
        `stale exemption ${key}`,
      ).toBe(true);
    // A schema of a part the fuzzer cannot build (headers only) would leave a route untested.
    const unbuildable = server.app.routeTable.filter((entry) => {
      const schema = (entry.schema ?? {}) as Record<string, unknown>;
      return schema.headers && !PARTS.some((part) => schema[part]);
    });
    expect(unbuildable.map((entry) => entry.url)).toEqual([]);
  });

  it.skipIf(!available)('the counterexamples found so far stay fixed', async () => {
    for (const regression of REGRESSIONS) {
      const route = routes.find((candidate) => keyOf(candidate) === regression.route);
      expect(route, regression.route).toBeDefined();
      await exchange(route!, regression.input, regression.expected);
    }
  });

  /** Valid edge inputs to each route; they may write (that is what valid input is for). */
  async function edgePhase(selected: FuzzRoute[]) {
    for (const route of selected) {
      const index = routes.indexOf(route);
      await fc.assert(
        fc.asyncProperty(edgeCaseArbitrary(route), async (input) => {
          tally.edgeSent += 1;
          await exchange(route, input);
        }),
        { numRuns: isExport(route) ? EXPORT_EDGE_RUNS : EDGE_RUNS, seed: seed + index },
      );
      await stillSignedIn(route, 'edge');
    }
  }

  const fuzzable = () => routes.filter((route) => hasSchema(route) && !EXEMPT.has(keyOf(route)));

  // Exports first, before anything is written: they render every matching row (not a page),
  // and the refused phase fills the operation log with thousands of audited refusals.
  it.skipIf(!available)(
    'edge-case valid input to exports is never a server error',
    () => edgePhase(fuzzable().filter(isExport)),
    600_000,
  );

  it.skipIf(!available || backend !== REFUSED_ON)(
    'refused input gets a translated 400 naming the field and writes nothing',
    async () => {
      const schemaRoutes = fuzzable();
      // The server's own clock stopped meanwhile: its recurring checks (a station warning
      // raising its alarm rule and record) would write between two fingerprints of a batch
      // whenever a slow run lets a check fall due. A trigger a refused request wrongly made is
      // still a row that differs.
      await server.app.scheduler.stop();
      try {
        await refusedPhase(schemaRoutes);
      } finally {
        await server.app.scheduler.start();
      }
    },
    900_000,
  );

  /** Refused input, a batch of routes between two fingerprints of the database. */
  async function refusedPhase(schemaRoutes: FuzzRoute[]) {
    for (let start = 0; start < schemaRoutes.length; start += ROUTES_PER_FINGERPRINT) {
      const batch = schemaRoutes.slice(start, start + ROUTES_PER_FINGERPRINT);
      const before = await fingerprint(server.db);
      for (const [index, route] of batch.entries()) {
        for (const input of transportCases(route, start + index)) await refused(route, input);
        await mutants(route, seed + start + index, true);
        await stillSignedIn(route, 'refused');
      }
      const written = changedTables(before, await fingerprint(server.db));
      expect(written, `refused input to ${batch.map(keyOf).join(', ')} wrote rows`).toEqual([]);
    }
  }

  it.skipIf(!available)('routes that read no input survive junk', async () => {
    const junkRoutes = routes.filter((route) => !hasSchema(route) && !EXEMPT.has(keyOf(route)));
    const junk = fc.record({
      query: fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }), {
        maxKeys: 4,
      }),
      body: fc.oneof(
        fc.constant({ type: 'absent' as const }),
        fc.jsonValue({ maxDepth: 3 }).map((value) => ({ type: 'json' as const, value })),
        fc.constantFrom(...BODY_TRANSPORT_CASES.map((transport) => transport.body)),
      ),
      lang: fc.constantFrom<'en' | 'zh'>('en', 'zh'),
    });
    for (const [index, route] of junkRoutes.entries()) {
      await fc.assert(
        fc.asyncProperty(junk, async ({ query, body, lang }) => {
          tally.junkSent += 1;
          const input: FuzzCase = {
            query,
            body: route.method === 'GET' ? { type: 'absent' } : body,
            lang,
            note: 'junk',
          };
          await exchange(route, input, { kind: 'survives' });
        }),
        { numRuns: JUNK_RUNS, seed: seed + index },
      );
      await stillSignedIn(route, 'junk');
    }
  });

  // After the refused phase, so that it meets the seeded data and the admin's rights intact.
  it.skipIf(!available)(
    'edge-case valid input to every other route is never a server error',
    () => edgePhase(fuzzable().filter((route) => !isExport(route))),
    600_000,
  );

  it.skipIf(!available)(
    'mutants the schema accepts are never a server error either',
    async () => {
      // Where refused input is not sent, this backend's mutants are only sorted: the accepted
      // ones are its own to replay.
      if (backend !== REFUSED_ON)
        for (const [index, route] of fuzzable().entries()) {
          await mutants(route, seed + index, false);
          // Sorting sends nothing, so without a turn of the event loop the kept-alive socket's
          // idle timers (the server's and the client's, both in this process) would fire only
          // after the whole sort: past 72 s on a slow machine the server then closes the socket
          // just as the first replay is written to it (ECONNRESET).
          await new Promise((resolve) => setImmediate(resolve));
        }
      // Exports are left out: their query schema is the list's, whose replays run here.
      for (const route of routes.filter((candidate) => !isExport(candidate))) {
        for (const input of deferred.get(keyOf(route)) ?? []) {
          tally.edgeSent += 1;
          await exchange(route, input);
        }
        if (deferred.has(keyOf(route))) await stillSignedIn(route, 'edge');
      }
      if (signedOutBy.length > 0) console.log(`valid inputs signed the fuzzer out: ${signedOutBy}`);
    },
    600_000,
  );

  it.skipIf(!available)('every route that is not exempt was called', () => {
    const missed = routes.map(keyOf).filter((key) => !EXEMPT.has(key) && !visited.has(key));
    expect(missed).toEqual([]);
  });
});
