import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server';
import { writeWebDist } from '../testing/web-dist';
import { API_DOCS_CSP, CONSOLE_CSP, securityHeaders } from './security-headers';

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
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'assets/app-1234.js': 'console.log(1)',
    });
    server = await startTestServer({ config: { webDist: dist } });
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
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('img-src')).toBe("'self' data: blob:");
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
    for (const csp of [CONSOLE_CSP, API_DOCS_CSP]) {
      expect(csp).not.toMatch(/unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*/);
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
    expect(securityHeaders({ https: true })['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(securityHeaders({ https: false })).not.toHaveProperty('strict-transport-security');
  });
});
