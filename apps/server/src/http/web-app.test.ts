import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing/api-client';
import { startTestServer, type TestServer } from '../testing/test-server';

describe('serving the console', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    await fs.writeFile(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    server = await startTestServer({ config: { webDist: dist } });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('answers any screen path with index.html, uncached, so the SPA router decides', async () => {
    for (const screen of ['/', '/login', '/home/workbench', '/no/such/screen']) {
      const page = await fetch(`${server.url}${screen}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toContain('<title>console</title>');
    }
  });

  it('caches hashed assets for good', async () => {
    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers an unknown API path with a translated 404 envelope, not the page', async () => {
    const missing = await call(server, 'GET', '/api/nothing/here?x=1', { lang: 'tw' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 404,
      message: '介面不存在：GET /api/nothing/here',
      data: null,
    });
  });

  it('serves the OpenAPI description of every route at /api/docs', async () => {
    const spec = await call(server, 'GET', '/api/docs/json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/uaa/oauth/token',
        '/api/uaa/users/getSysUser',
        '/api/admin/sysuser/queryTenantUser',
      ]),
    );
    const ui = await fetch(`${server.url}/api/docs`, { redirect: 'follow' });
    expect(ui.status).toBe(200);
  });

  it('reports its health', async () => {
    expect((await call(server, 'GET', '/api/health')).body.data).toEqual({
      status: 'up',
      database: 'up',
    });
  });
});
