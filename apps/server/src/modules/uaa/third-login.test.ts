import { appClientEntity, entityCalls } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

const PROVIDER = '/api/uaa/thirdLogin/provider';

/** Spec §2 /thirdLogin: where a third-party sign-in starts, from the app clients configured. */
describe.each(BACKENDS)('third-party sign-in provider on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const provider = (clientId?: string) => call(server, 'GET', PROVIDER, { query: { clientId } });
  const addClient = (clientId: string, grants: string[], uri?: string) =>
    call(server, 'POST', entityCalls(appClientEntity).add, {
      token: admin,
      body: {
        clientId,
        authorizedGrantTypes: grants,
        scope: ['ui'],
        accessTokenValidity: 900,
        refreshTokenValidity: 3600,
        webServerRedirectUri: uri,
      },
    });

  it.skipIf(!available)(
    'answers null while no client is configured, without signing in',
    async () => {
      // The console's own client never counts: it has no third-party sign-in.
      expect((await provider()).body).toEqual({ code: 200, message: 'success', data: null });
      expect((await provider('browser')).body.data).toBeNull();
    },
  );

  it.skipIf(!available)(
    'answers only the configured redirect URI of a client with the authorization_code grant',
    async () => {
      expect(
        (await addClient('idp-one', ['authorization_code'], 'https://idp.example/authorize?x=1'))
          .status,
      ).toBe(200);
      expect(
        (await addClient('nocode', ['client_credentials'], 'https://nocode.example')).status,
      ).toBe(200);
      expect((await addClient('nouri', ['authorization_code'])).status).toBe(200);

      expect((await provider('idp-one')).body.data).toEqual({
        clientId: 'idp-one',
        url: 'https://idp.example/authorize?x=1',
      });
      // The only one configured is the one an unnamed link means.
      expect((await provider()).body.data).toEqual({
        clientId: 'idp-one',
        url: 'https://idp.example/authorize?x=1',
      });
      // Without the grant, without a URI, or unknown: nothing to go to.
      for (const clientId of ['nocode', 'nouri', 'unknown'])
        expect((await provider(clientId)).body.data).toBeNull();

      // Two configured: an unnamed link names none of them.
      expect(
        (await addClient('idp-two', ['authorization_code'], 'https://two.example/')).status,
      ).toBe(200);
      expect((await provider()).body.data).toBeNull();
      expect((await provider('idp-two')).body.data.url).toBe('https://two.example/');
    },
  );

  it.skipIf(!available)('refuses a malformed client id, naming the field', async () => {
    const answer = await call(server, 'GET', PROVIDER, { query: { clientId: 'x'.repeat(65) } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('clientId');
  });
});
