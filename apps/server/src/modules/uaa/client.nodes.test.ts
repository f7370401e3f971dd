import { appClientEntity, entityCalls } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, requestToken, signIn } from '@shuili/test-support/api-client';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
} from '@shuili/test-support/test-server';

const calls = entityCalls(appClientEntity);
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * OAuth clients across nodes (docs/scaling.md "What each node keeps to itself"): an app client's
 * new secret or removal, made through one node, holds at once on another that used the client
 * just before (no node keeps a client it read).
 */
describe.skipIf(!TEST_DATABASE_URL)('app clients on two nodes of one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let admin: string;

  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres' });
    second = await startSecondNode(first);
    admin = (await signIn(first, 'platform', 'admin', 'admin123')).access_token;
  }, 180_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** The token endpoint's answer to a client: 401 invalid_client, or past it (a bad grant). */
  const tryClient = async (node: TestServer, id: string, secret: string) => {
    const result = await requestToken(
      node,
      { grant_type: 'refresh_token', refresh_token: 'none', client_id: id },
      { authorization: basic(id, secret) },
    );
    return result.body.error;
  };

  const fields = {
    clientId: 'gate-app',
    authorizedGrantTypes: ['refresh_token'],
    scope: ['ui'],
    accessTokenValidity: 900,
    refreshTokenValidity: 3600,
  };

  it('a changed secret and a removed client are refused on the other node at once', async () => {
    const added = await call(first, 'POST', calls.add, {
      token: admin,
      body: fields,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const secret = added.body.data.clientSecret as string;
    const id = String(added.body.data.id);
    expect(await tryClient(second, 'gate-app', secret)).toBe('invalid_grant');

    const changed = await call(first, 'PUT', calls.update, {
      token: admin,
      body: { ...fields, id, clientSecret: 'a-new-secret-of-the-gate-app' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await tryClient(second, 'gate-app', secret)).toBe('invalid_client');
    expect(await tryClient(second, 'gate-app', 'a-new-secret-of-the-gate-app')).toBe(
      'invalid_grant',
    );

    const removed = await call(first, 'POST', calls.delete, {
      token: admin,
      query: { clientId: 'gate-app' },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await tryClient(second, 'gate-app', 'a-new-secret-of-the-gate-app')).toBe(
      'invalid_client',
    );
  });
});
