import { entityCalls, sysUrlEntity, translate } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../http/route-table';
import { call, signIn } from '@shuili/test-support/api-client';
import { noGrantUser } from '@shuili/test-support/no-grant-user';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import {
  BOOKKEEPING_TABLES,
  changedTables,
  fingerprint,
  pauseScheduledJobs,
} from './database-fingerprint';
import { buildRequest, describeRequest, send, type RouteRequest } from './route-requests';
import { entityCallOf, targetedFields } from './route-targets';
import { createTenantFixtures, type TenantFixtures } from './tenant-fixtures';
import { isRead, routeKey, tenantRequest } from './tenant-requests';

/**
 * The permission matrix, from the server's own route table: every 'granted' route refuses a
 * role that does not hold its URL (403, translated envelope) and changes nothing, every route
 * that needs a caller refuses an anonymous one (401). Each is sent as a real call would be —
 * aimed at the caller's own tenant's objects — so only the permission can stop it.
 * (The role-code header is checked in sign-in.test.ts; one-URL grants per entity call in
 * entity-contract.test.ts; a route without a permission cannot register: guard.test.ts.)
 */

/** A request the route would accept but for the permission: real objects when it names any. */
function requestFor(route: RouteEntry, fixtures: TenantFixtures): RouteRequest {
  if (targetedFields(route).length > 0) {
    const planned = tenantRequest(route, fixtures);
    if ('request' in planned) return planned.request;
  }
  const sampled = buildRequest(route, () => undefined);
  if (sampled.request) return sampled.request;
  // The guard answers before validation: an empty request still proves the refusal.
  return { method: route.methods[0]!, url: route.url, query: {} };
}

/** Every table, bookkeeping included: the suite reports which bookkeeping tables moved. */
const NOTHING = new Set<string>();
const touched = new Set<string>();
/** The changed tables that are not bookkeeping; the bookkeeping ones are noted for the report. */
function bookkept(changed: string[]): string[] {
  for (const table of changed) if (BOOKKEEPING_TABLES.has(table)) touched.add(table);
  return changed.filter((table) => !BOOKKEEPING_TABLES.has(table));
}

describe.each(BACKENDS)('permission matrix on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let fixtures: TenantFixtures;
  let noGrant: { token: string; roleId: string };
  const test = it.skipIf(!available);
  const routesOf = (permission: RouteEntry['permission']) =>
    server.app.routeTable.filter((route) => route.permission === permission);

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    await pauseScheduledJobs(server.db);
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    fixtures = await createTenantFixtures(server, 'demo', admin);
    noGrant = await noGrantUser(server, 'matrix');
  }, 180_000);
  afterAll(async () => {
    if (available)
      console.info(
        `[${backend}] permission matrix: bookkeeping tables written by refused calls: ${[...touched].sort().join(', ') || 'none'}`,
      );
    await server?.close();
  });

  test('every API route declares public, authenticated or granted', () => {
    const counts = { public: 0, authenticated: 0, granted: 0 };
    for (const route of server.app.routeTable) {
      expect(route.url.startsWith('/api/'), route.url).toBe(true);
      expect(['public', 'authenticated', 'granted'], routeKey(route)).toContain(route.permission);
      counts[route.permission] += 1;
    }
    console.info(
      `[${backend}] permission matrix: ${server.app.routeTable.length} routes: ` +
        `${counts.granted} granted, ${counts.authenticated} authenticated, ${counts.public} public`,
    );
    expect(counts.granted).toBeGreaterThan(250);
  });

  test('a role without the URL gets 403 on every granted route, and nothing is written', async () => {
    const granted = routesOf('granted');
    const before = await fingerprint(server.db, NOTHING);
    const problems: string[] = [];
    for (const route of granted) {
      const request = requestFor(route, fixtures);
      const answer = await send(server, request, noGrant.token);
      if (
        answer.status !== 403 ||
        answer.json?.code !== 403 ||
        answer.json.message !== translate('en', 'auth.forbidden') ||
        answer.json.data !== null
      )
        problems.push(
          `${describeRequest(request)} → ${answer.status} ${answer.text.slice(0, 200)}`,
        );
    }
    const changed = bookkept(changedTables(before, await fingerprint(server.db, NOTHING)));
    expect(problems).toEqual([]);
    expect(changed, 'tables changed by refused calls').toEqual([]);
    console.info(`[${backend}] permission matrix: ${granted.length} granted routes refused 403`);
  }, 600_000);

  test('no token: every route that is not public answers 401, and nothing is written', async () => {
    const guarded = server.app.routeTable.filter((route) => route.permission !== 'public');
    const before = await fingerprint(server.db, NOTHING);
    const problems: string[] = [];
    for (const route of guarded) {
      const request = requestFor(route, fixtures);
      const answer = await send(server, request, undefined);
      if (answer.status !== 401 || answer.json?.code !== 401)
        problems.push(
          `${describeRequest(request)} → ${answer.status} ${answer.text.slice(0, 200)}`,
        );
    }
    const changed = bookkept(changedTables(before, await fingerprint(server.db, NOTHING)));
    expect(problems).toEqual([]);
    expect(changed, 'tables changed by refused calls').toEqual([]);
    console.info(
      `[${backend}] permission matrix: ${guarded.length} routes refused 401 without a token`,
    );
  }, 600_000);

  test('a role granted exactly one URL calls it, and not the routes beside it', async () => {
    // A few reads outside the generic entity calls (those are sampled in entity-contract.test.ts).
    const candidates = routesOf('granted').filter(
      (route) => isRead(route) && !entityCallOf(route.url),
    );
    const sample = [0, 1, 2].map((i) => candidates[Math.floor((i * candidates.length) / 3)]!);
    const setGrants = async (urls: string[]) => {
      const ids: string[] = [];
      for (const url of urls) {
        const found = await call(server, 'GET', entityCalls(sysUrlEntity).query, {
          token: admin,
          query: { url, pageSize: '100' },
        });
        const row = (found.body.data.list as { id: string; url: string }[]).find(
          (one) => one.url === url,
        );
        expect(row, `${url} is a URL permission of demo`).toBeDefined();
        ids.push(row!.id);
      }
      const written = await call(server, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
        token: admin,
        body: { roleId: noGrant.roleId, urlIds: ids },
      });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
    };
    for (const route of sample) {
      await setGrants([route.url]);
      const allowed = await send(server, requestFor(route, fixtures), noGrant.token);
      expect(allowed.status, `${routeKey(route)} granted: ${allowed.text.slice(0, 200)}`).toBe(200);
      // The reads nearest to it: under its own path, else under the closest parent path that
      // has others (a module with a single read shares /api/<module>/ with its siblings).
      const reads = routesOf('granted').filter((other) => other !== route && isRead(other));
      let prefix = route.url.slice(0, route.url.lastIndexOf('/') + 1);
      let neighbours = reads.filter((other) => other.url.startsWith(prefix));
      while (neighbours.length === 0 && prefix.split('/').length > 3) {
        prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1);
        neighbours = reads.filter((other) => other.url.startsWith(prefix));
      }
      neighbours = neighbours.slice(0, 4);
      expect(neighbours.length, `neighbours of ${route.url}`).toBeGreaterThan(0);
      for (const other of neighbours) {
        const refused = await send(server, requestFor(other, fixtures), noGrant.token);
        expect(refused.status, `${routeKey(other)} beside ${route.url}`).toBe(403);
      }
    }
    await setGrants([]);
    console.info(
      `[${backend}] permission matrix: one-URL grants of ${sample.map((r) => r.url).join(', ')}`,
    );
  }, 120_000);
});
