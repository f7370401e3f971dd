import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { UrlGrantService } from '../modules/authority/url-grant.service';
import { AccessTokens } from '../modules/uaa/access-token';
import { registerGuard } from './guard';

describe('the guard', () => {
  it('refuses to start a server with an API route that declares no permission', async () => {
    const app = Fastify();
    const db = {} as Database;
    registerGuard(app, {
      db,
      tokens: new AccessTokens('k'.repeat(32)),
      grants: new UrlGrantService(db),
    });
    expect(() => app.get('/api/forgotten', async () => 'open to all?')).toThrow(
      /declares no permission/,
    );
    app.get('/api/declared', { config: { permission: 'authenticated' } }, async () => 'ok');
    await app.ready();
    const answer = await app.inject({ method: 'GET', url: '/api/declared' });
    expect(answer.statusCode).toBe(401);
    await app.close();
  });
});
