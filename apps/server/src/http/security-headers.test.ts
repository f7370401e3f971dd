import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { writeWebDist } from '@shuili/test-support/web-dist';
import { CONSOLE_SETTINGS_CALL, traceCodeCheckChar } from '@shuili/contract';
import { loadConfig } from '../config';
import { DEFAULT_MAP_TILE_URL, mapTileSource } from './map-tiles';
import { API_DOCS_CSP, consoleCsp, securityHeaders } from './security-headers';

/** The file's server takes its tiles from a server of its own, with subdomains and a port. */
const TILES = 'https://{s}.tiles.example.net:8443/osm/{z}/{x}/{y}.png';

/** A well-formed trace code no batch has. */
const UNKNOWN_CODE = `7KQ2M9X4TD0${traceCodeCheckChar('7KQ2M9X4TD0')}`;

/** Every response kind the server sends: JSON, errors of each sort, the console and its files. */
const RESPONSES: Array<{ kind: string; method: string; path: string; status: number }> = [
  { kind: 'API JSON', method: 'GET', path: '/api/health', status: 200 },
  { kind: 'API 401', method: 'GET', path: '/api/uaa/users/getSysUser', status: 401 },
  { kind: 'API 400', method: 'GET', path: '/api/admin/sysuser/queryTenantUser', status: 400 },
  { kind: 'API 404', method: 'GET', path: '/api/no/such/route', status: 404 },
  { kind: 'non-GET 404', method: 'DELETE', path: '/home/workbench', status: 404 },
  { kind: 'index.html', method: 'GET', path: '/', status: 200 },
  { kind: 'SPA screen', method: 'GET', path: '/login', status: 200 },
  { kind: 'static file', method: 'GET', path: '/favicon.svg', status: 200 },
  { kind: 'hashed asset', method: 'GET', path: '/assets/app-1234.js', status: 200 },
  { kind: 'missing asset', method: 'GET', path: '/assets/none-0000.js', status: 200 },
  { kind: 'OpenAPI JSON', method: 'GET', path: '/api/docs/json', status: 200 },
  { kind: 'public trace page', method: 'GET', path: '/traceHome?code=7KQ2M9X4TD0C', status: 200 },
  { kind: 'public look-up page', method: 'GET', path: '/search', status: 200 },
  {
    kind: 'public trace 404',
    method: 'GET',
    path: `/api/trace/public/${UNKNOWN_CODE}`,
    status: 404,
  },
];

/** The CSP directives as a map, so a test reads one directive at a time. */
function directives(csp: string | null): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values.join(' ')] as [string, string];
      }),
  );
}

describe('security headers', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = await writeWebDist({
      'index.html': '<!doctype html><title>console</title>',
      'trace-home.html': '<!doctype html><title>trace</title>',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'assets/app-1234.js': 'console.log(1)',
    });
    server = await startTestServer({
      config: { webDist: dist, mapTileUrl: TILES, cardReaderPort: 17821 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it.each(RESPONSES)('$kind ($method $path) carries every header', async (response) => {
    const reply = await fetch(`${server.url}${response.path}`, { method: response.method });
    expect(reply.status).toBe(response.status);
    const csp = directives(reply.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.get('form-action')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    // The console also reaches the desk's card-reading service (CARD_READER_PORT), the docs not.
    expect(csp.get('connect-src')).toBe(
      response.path.startsWith('/api/docs')
        ? "'self'"
        : "'self' ws://127.0.0.1:17821 ws://localhost:17821",
    );
    // Images: our own, and the console's map tiles from exactly the configured server.
    expect(csp.get('img-src')).toBe(
      response.path.startsWith('/api/docs')
        ? "'self' data: blob:"
        : "'self' data: blob: https://*.tiles.example.net:8443",
    );
    expect(csp.get('worker-src')).toBe("'self' blob:");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(reply.headers.get('x-frame-options')).toBe('DENY');
    expect(reply.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(reply.headers.get('permissions-policy')).toContain('camera=()');
    // Plain HTTP (SECURE_COOKIES unset): no HSTS.
    expect(reply.headers.get('strict-transport-security')).toBeNull();
  });

  it('never lets a script run from anywhere but our own files', () => {
    for (const csp of [consoleCsp(DEFAULT_MAP_TILE_URL), consoleCsp(TILES), API_DOCS_CSP]) {
      // The one wildcard allowed: the tile server's subdomains, in img-src.
      expect(csp.replace('https://*.tiles.example.net', '')).not.toMatch(
        /unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*/,
      );
      expect(directives(csp).get('script-src')).toBe("'self'");
      expect(directives(csp).get('default-src')).toBe("'self'");
    }
  });

  it('gives the API docs their own policy, just as strict for scripts', async () => {
    const page = await fetch(`${server.url}/api/docs/static/index.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The UI's page has no inline script for the policy to have to allow.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(page.headers.get('content-security-policy')).toBe(API_DOCS_CSP);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('adds HSTS only when the console is served over HTTPS', () => {
    const mapTileUrl = DEFAULT_MAP_TILE_URL;
    expect(securityHeaders({ https: true, mapTileUrl })['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(securityHeaders({ https: false, mapTileUrl })).not.toHaveProperty(
      'strict-transport-security',
    );
  });

  it("lets the map's tiles through from OpenStreetMap by default, and nothing else", () => {
    const saved = process.env.MAP_TILE_URL;
    delete process.env.MAP_TILE_URL;
    try {
      expect(loadConfig().mapTileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    } finally {
      if (saved !== undefined) process.env.MAP_TILE_URL = saved;
    }
    expect(directives(consoleCsp(DEFAULT_MAP_TILE_URL)).get('img-src')).toBe(
      "'self' data: blob: https://tile.openstreetmap.org",
    );
    // The API docs show no map.
    expect(directives(API_DOCS_CSP).get('img-src')).toBe("'self' data: blob:");
  });

  it('follows MAP_TILE_URL: its origin, its subdomains for {s}, nothing more for our own path', () => {
    expect(mapTileSource('http://10.0.0.5:8080/tiles/{z}/{x}/{-y}.png')).toBe(
      'http://10.0.0.5:8080',
    );
    expect(mapTileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://*.tile.openstreetmap.org',
    );
    expect(mapTileSource('/tiles/{z}/{x}/{y}.png')).toBeUndefined();
    expect(directives(consoleCsp('/tiles/{z}/{x}/{y}.png')).get('img-src')).toBe(
      "'self' data: blob:",
    );
    // What the policy could not follow exactly stops the server at start.
    for (const wrong of [
      'tiles.example.net/{z}/{x}/{y}.png',
      'ftp://tiles.example.net/{z}/{x}/{y}.png',
      'https://tiles.example.net/{z}/{x}.png',
      'https://a{s}.tiles.example.net/{z}/{x}/{y}.png',
      'https://user@tiles.example.net/{z}/{x}/{y}.png',
      "https://tiles.example.net; script-src 'unsafe-inline'/{z}/{x}/{y}.png",
      '//tiles.example.net/{z}/{x}/{y}.png',
    ]) {
      expect(() => mapTileSource(wrong), wrong).toThrow(/MAP_TILE_URL/);
    }
    const saved = process.env.MAP_TILE_URL;
    process.env.MAP_TILE_URL = 'https://a{s}.tiles.example.net/{z}/{x}/{y}.png';
    try {
      expect(() => loadConfig()).toThrow(/MAP_TILE_URL/);
    } finally {
      if (saved === undefined) delete process.env.MAP_TILE_URL;
      else process.env.MAP_TILE_URL = saved;
    }
  });

  it('tells the console the tile server its policy allows', async () => {
    const reply = await fetch(`${server.url}${CONSOLE_SETTINGS_CALL}`);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { data: unknown }).data).toEqual({
      mapTileUrl: TILES,
      cardReaderPort: 17821,
    });
  });

  it("lets the console reach the card-reading service's port on the loopback, nothing more", () => {
    const saved = process.env.CARD_READER_PORT;
    try {
      delete process.env.CARD_READER_PORT;
      expect(loadConfig().cardReaderPort).toBe(17820);
      process.env.CARD_READER_PORT = '70000';
      expect(() => loadConfig()).toThrow(/CARD_READER_PORT/);
    } finally {
      if (saved === undefined) delete process.env.CARD_READER_PORT;
      else process.env.CARD_READER_PORT = saved;
    }
    expect(directives(consoleCsp(DEFAULT_MAP_TILE_URL, [], 17820)).get('connect-src')).toBe(
      "'self' ws://127.0.0.1:17820 ws://localhost:17820",
    );
    // 0: no desk reader, and the policy stays as it was.
    expect(directives(consoleCsp(DEFAULT_MAP_TILE_URL, [], 0)).get('connect-src')).toBe("'self'");
  });
});
