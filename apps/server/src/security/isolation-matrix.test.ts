import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../http/route-table';
import { signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import {
  BOOKKEEPING_TABLES,
  changedTables,
  fingerprint,
  pauseScheduledJobs,
} from './database-fingerprint';
import { describeRequest, send, type Answer, type RouteRequest } from './route-requests';
import { targetedFields } from './route-targets';
import { createTenantFixtures, type TenantFixtures } from './tenant-fixtures';
import { isRead, routeKey, tenantRequest } from './tenant-requests';

/**
 * Routes that take an id or a filter but are not probed with another tenant's objects, and why.
 * A route that takes one and is neither probed nor listed here fails the suite.
 */
const EXEMPT: Record<string, string> = {
  'GET /api/account/captcha/getSmsCaptcha':
    'public: sends a code to a phone number of the named tenant; nobody is signed in to cross tenants',
  'GET /api/account/captcha/getEmailCaptcha':
    'public: sends a code to an address of the named tenant; nobody is signed in to cross tenants',
  'GET /api/account/captcha/getSignInCaptcha':
    "public: sends a sign-in code to the named account's own mobile or e-mail; nobody is signed in to cross tenants",
  'POST /api/account/sysuserdetail/retrievePassword':
    'public: resets a password with a code sent to its owner; nobody is signed in to cross tenants',
  'POST /api/admin/sysuser/registerAccountInitial':
    'public: creates a new tenant of its own; it names no existing object',
};

/**
 * Reads probed as acme but not compared with demo's own answer, and why: demo's admin cannot
 * find the object either, so the comparison would prove nothing (acme's answer is still checked).
 */
const NOT_COMPARED: Record<string, string> = {
  'POST /api/account/sysuserdetail/queryCurrentAuthority':
    "answers the caller's own authority only: another username is refused in any tenant",
  'GET /api/admin/sysmenu/queryDataFieldByMenuCode':
    "lists the fields of the contract's entity behind a menu code: no tenant's rows are read",
  'GET /api/video/camera/queryAllCamera':
    "answers the cameras of the zone probed and below it: demo's fixture zone may hold none of demo's cameras",
  'GET /api/monitor/irrigation/queryWaterDelivered':
    "demo's fixture zone has no water meter readings: its answer is empty for demo too",
  'GET /api/monitor/irrigation/queryScheduleRun':
    "demo's fixture rotation schedule has not run (its start is tomorrow): no runs for demo either",
  'GET /api/monitor/fertigation/queryFertigationRun':
    "demo's fixture program has never run: no runs for demo either",
  'GET /api/monitor/fertigation/queryFertilizerUse':
    "demo's fixture device has no suction flow readings: its answer is empty for demo too",
  'GET /api/monitor/weather/queryDailyEt0':
    "demo's fixture device is a valve controller, not a weather station: refused for demo too",
  'POST /api/trace/chain/exportTraceEpcis':
    'EPCIS names lots and places by number and key, never by the names that carry the markers (the same chain as JSON, queryTraceChain, is compared)',
};

/** What a refusal looks like; a 200 must then show nothing of the other tenant. */
const REFUSALS = [400, 403, 404];

interface Probe {
  route: RouteEntry;
  request: RouteRequest;
  /** The request names objects carrying markers (the tenant's own, not shared data). */
  markers: boolean;
}

/** The JSON data of an answer is empty: nothing, an empty list or page, false or zero. */
function emptyData(answer: Answer): boolean {
  const data = answer.json?.data;
  if (data === null || data === undefined || data === false || data === 0) return true;
  if (Array.isArray(data)) return data.length === 0;
  if (typeof data === 'object') {
    const values = Object.values(data as Record<string, unknown>);
    if ('list' in data) return (data as { list: unknown[] }).list.length === 0;
    return values.every(
      (value) =>
        value === null || value === false || value === 0 || (Array.isArray(value) && !value.length),
    );
  }
  return false;
}

/** Every table, bookkeeping included: the suite reports which bookkeeping tables moved. */
const NOTHING = new Set<string>();
const touched = new Set<string>();
/** The changed tables that are not bookkeeping; the bookkeeping ones are noted for the report. */
function bookkept(changed: string[]): string[] {
  for (const table of changed) if (BOOKKEEPING_TABLES.has(table)) touched.add(table);
  return changed.filter((table) => !BOOKKEEPING_TABLES.has(table));
}

describe.each(BACKENDS)('isolation matrix on $backend', ({ backend, available }) => {
  let server: TestServer;
  let acme: string;
  let demo: string;
  let fixtures: TenantFixtures;
  const probes: Probe[] = [];
  const unfilled: string[] = [];
  /** acme's answers to the probes, kept for the comparison with demo's own. */
  const acmeAnswers = new Map<Probe, Answer>();
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    await pauseScheduledJobs(server.db);
    [acme, demo] = await Promise.all([
      signIn(server, 'acme', 'admin', 'admin123').then((token) => token.access_token),
      signIn(server, 'demo', 'admin', 'admin123').then((token) => token.access_token),
    ]);
    fixtures = await createTenantFixtures(server, 'demo', demo);
    for (const route of server.app.routeTable) {
      if (targetedFields(route).length === 0 || EXEMPT[routeKey(route)]) continue;
      const planned = tenantRequest(route, fixtures);
      if ('problem' in planned) unfilled.push(`${routeKey(route)}: ${planned.problem}`);
      else probes.push({ route, ...planned });
    }
  }, 180_000);
  afterAll(async () => {
    if (available)
      console.info(
        `[${backend}] isolation matrix: bookkeeping tables written by refused calls: ${[...touched].sort().join(', ') || 'none'}`,
      );
    await server?.close();
  });

  /** Leaked markers of demo's objects in an answer to acme. */
  const leaked = (answer: Answer) =>
    fixtures.markers.filter((marker) => answer.text.toLowerCase().includes(marker));

  test('every route that takes an id or a filter is probed or exempt with a reason', () => {
    const targeted = server.app.routeTable.filter((route) => targetedFields(route).length > 0);
    const exempt = targeted.filter((route) => EXEMPT[routeKey(route)]);
    expect(unfilled, 'routes the generator could not fill: probe them or exempt them').toEqual([]);
    expect(probes.length + exempt.length).toBe(targeted.length);
    // An exemption of a route that no longer exists (or takes no id) is stale.
    const keys = new Set(targeted.map(routeKey));
    expect(Object.keys(EXEMPT).filter((key) => !keys.has(key))).toEqual([]);
    console.info(
      `[${backend}] isolation matrix: ${server.app.routeTable.length} routes, ${targeted.length} take ids or filters: ` +
        `${probes.length} probed (${probes.filter((p) => isRead(p.route)).length} reads, ` +
        `${probes.filter((p) => !isRead(p.route)).length} writes), ${exempt.length} exempt`,
    );
    expect(probes.length).toBeGreaterThan(200);
  });

  test("acme's admin on demo's objects: refused or empty, nothing of demo shown, nothing written", async () => {
    const before = await fingerprint(server.db, NOTHING);
    const answers = acmeAnswers;
    for (const probe of probes) answers.set(probe, await send(server, probe.request, acme));
    const changed = bookkept(changedTables(before, await fingerprint(server.db, NOTHING)));

    const problems: string[] = [];
    for (const [probe, answer] of answers) {
      const what = `${describeRequest(probe.request)} → ${answer.status}`;
      if (!REFUSALS.includes(answer.status) && answer.status !== 200)
        problems.push(`${what}: neither refused nor answered (${answer.text.slice(0, 200)})`);
      const shown = leaked(answer);
      if (shown.length > 0) problems.push(`${what}: shows demo's ${shown.join(', ')}`);
    }
    if (changed.length > 0) {
      // Bisect: which calls change anything when repeated one by one.
      for (const probe of probes) {
        const one = await fingerprint(server.db);
        await send(server, probe.request, acme);
        const moved = changedTables(one, await fingerprint(server.db));
        if (moved.length > 0)
          problems.push(`${describeRequest(probe.request)} wrote ${moved.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect(changed, 'tables changed by refused calls').toEqual([]);
  }, 600_000);

  test("the probes reach demo's objects: the same reads by demo's admin find them", async () => {
    const problems: string[] = [];
    let compared = 0;
    const reads = probes.filter(
      (one) => isRead(one.route) && one.markers && !NOT_COMPARED[routeKey(one.route)],
    );
    for (const probe of reads) {
      const own = await send(server, probe.request, demo);
      const foreign = acmeAnswers.get(probe) ?? (await send(server, probe.request, acme));
      const what = describeRequest(probe.request);
      // A download is found when its bytes come back; anything else shows a marker or data.
      const found =
        fixtures.markers.some((marker) => own.text.toLowerCase().includes(marker)) ||
        (!own.json && own.text.length > 0 && !own.type.includes('json'));
      if (own.status !== 200 || (!found && emptyData(own))) {
        problems.push(
          `${what}: demo's admin finds nothing (${own.status} ${own.text.slice(0, 160)})`,
        );
        continue;
      }
      if (foreign.status === own.status && foreign.text === own.text)
        problems.push(`${what}: acme's admin gets exactly what demo's admin gets`);
      compared += 1;
    }
    expect(problems).toEqual([]);
    console.info(
      `[${backend}] isolation matrix: ${compared} reads found demo's object as demo ` +
        `(${Object.keys(NOT_COMPARED).length} reads not compared)`,
    );
  }, 600_000);
});
