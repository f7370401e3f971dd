import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { preferredEncoding } from './asset-compression';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { writeWebDist } from '@shuili/test-support/web-dist';

/** A script large enough to be worth compressing. */
const BIG_SCRIPT = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i};`).join(
  '\n',
);

describe('serving the console', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = await writeWebDist({
      'index.html': '<!doctype html><title>console</title>',
      'trace-home.html': '<!doctype html><title>trace</title>',
      'assets/app-1234.js': 'console.log(1)',
      'assets/chunk-5678.js': BIG_SCRIPT,
    });
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

  it('answers the public trace pages with their own small page, never the console', async () => {
    for (const screen of ['/traceHome?code=7KQ2M9X4TD0C', '/traceHome', '/search']) {
      const page = await fetch(`${server.url}${screen}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toContain('<title>trace</title>');
    }
    const other = await fetch(`${server.url}/traceHomeX`);
    expect(await other.text()).toContain('<title>console</title>');
  });

  it('caches hashed assets for good', async () => {
    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('compresses text assets with the best encoding the browser accepts', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const asset = await fetch(`${server.url}/assets/chunk-5678.js`, {
        headers: { 'accept-encoding': accept },
      });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('vary')).toBe('accept-encoding');
      expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await asset.text()).toBe(BIG_SCRIPT); // fetch decodes it
    }
  });

  it('sends assets as they are when compression is refused, tiny or missing', async () => {
    const plain = await fetch(`${server.url}/assets/chunk-5678.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(BIG_SCRIPT);
    const tiny = await fetch(`${server.url}/assets/app-1234.js`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('console.log(1)');
    const missing = await fetch(`${server.url}/assets/none-0000.js`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(missing.headers.get('content-encoding')).toBeNull();
    expect(await missing.text()).toContain('<title>console</title>'); // the SPA's fallback
  });

  it('reads accept-encoding as browsers and proxies send it', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
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
    expect((await call(server, 'GET', '/api/health')).body.data).toMatchObject({
      status: 'up',
      database: 'up',
      sessionNotifications: 'listening',
      broker: { kind: 'embedded', state: 'up' },
    });
  });
});
