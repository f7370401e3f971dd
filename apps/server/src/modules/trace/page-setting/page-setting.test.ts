import {
  publicTraceUrl,
  TRACE_PAGE_LOGO_MAX_BYTES,
  TRACE_PAGE_SETTING_CALLS,
  type PublicTrace,
  type TracePageSetting,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { seedChain, type Chain } from '../public/public-trace-test-kit';

/** A one-pixel PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(BACKENDS)('public page settings on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let acmeAdmin: string;
  let operator: string;
  let demo: Chain;
  let acme: Chain;
  const test = it.skipIf(!available);
  let address = 0;
  const look = (code: string) =>
    call<{ data: PublicTrace }>(server, 'GET', publicTraceUrl(code), {
      ip: `198.51.100.${(address++ % 250) + 1}`,
    });
  const save = (token: string, body: unknown, lang = 'en') =>
    call(server, 'POST', TRACE_PAGE_SETTING_CALLS.save, { token, body, lang });
  const read = (token: string) =>
    call<{ data: TracePageSetting }>(server, 'GET', TRACE_PAGE_SETTING_CALLS.query, { token });

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    acmeAdmin = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    demo = await seedChain(server.db, 'demo', 'DemoPageK');
    acme = await seedChain(server.db, 'acme', 'AcmePageK');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('answers the defaults, then what was saved; the public page follows it', async () => {
    await call(server, 'POST', TRACE_PAGE_SETTING_CALLS.reset, { token: admin });
    const before = await read(admin);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ title: null, color: null, updatedAt: null });
    expect(Object.values(before.body.data.sections).every(Boolean)).toBe(true);
    expect(before.body.data.previewCodes.map((one) => one.code)).toContain(demo.code);

    const saved = await save(admin, {
      title: 'Dongzhuang Fresh',
      color: '#1565C0',
      logo: `data:image/png;base64,${PNG.toString('base64')}`,
      contact: 'Hotline 0531-888',
      sections: { farmwork: false, producer: false },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = (await read(admin)).body.data;
    expect(after).toMatchObject({ title: 'Dongzhuang Fresh', color: '#1565c0' });
    expect(after.sections).toMatchObject({ farmwork: false, producer: false, sensors: true });
    expect(after.updatedAt).not.toBeNull();

    const page = (await look(demo.code)).body.data;
    expect(page.page).toMatchObject({
      title: 'Dongzhuang Fresh',
      color: '#1565c0',
      contact: 'Hotline 0531-888',
    });
    expect(page.page.logo).toMatch(/^data:image\/png;base64,/);
    expect(page.producer).toBeNull();
    expect(page.origins[0]!.farmwork).toEqual([]);
    expect(page.origins[0]!.sensors).not.toBeNull();

    // Another tenant's page and settings are its own.
    expect((await look(acme.code)).body.data.page.title).toBeNull();
    expect((await read(acmeAdmin)).body.data.title).toBeNull();
    expect(JSON.stringify((await read(acmeAdmin)).body)).not.toContain(demo.code);

    // Back to the defaults.
    expect(
      (await call(server, 'POST', TRACE_PAGE_SETTING_CALLS.reset, { token: admin })).status,
    ).toBe(200);
    expect((await look(demo.code)).body.data.page.title).toBeNull();
    expect((await look(demo.code)).body.data.producer).not.toBeNull();
  });

  test('refuses a bad colour, a long title and a logo that is not a small image, naming the field', async () => {
    const refused = async (body: unknown, field: string, text: RegExp, lang = 'en') => {
      const answer = await save(admin, body, lang);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors?.[0]?.field).toMatch(new RegExp(`^${field}\\b`));
      expect(answer.body.message).toMatch(text);
    };
    await refused({ color: 'blue' }, 'color', /Colour: write a colour as #/);
    await refused({ color: '#12345' }, 'color', /主题色：颜色请写成/, 'zh');
    await refused({ title: 'x'.repeat(65) }, 'title', /Page title must be at most 64/);
    await refused({ logo: 'https://evil.example/logo.png' }, 'logo', /Logo: upload a PNG/);
    await refused({ logo: '//evil.example/logo.png' }, 'logo', /Logo: upload a PNG/);
    await refused({ logo: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'logo', /Logo: upload a PNG/);
    const big = Buffer.concat([PNG, Buffer.alloc(TRACE_PAGE_LOGO_MAX_BYTES)]);
    await refused(
      { logo: `data:image/png;base64,${big.toString('base64')}` },
      'logo',
      /標誌超過 16 KB/,
      'tw',
    );
    await refused(
      { logo: `data:image/png;base64,${Buffer.from('<script>').toString('base64')}` },
      'logo',
      /Logo: its bytes are not the png image/,
    );
    await refused({ sections: { product: 'no' } }, 'sections', /Sections shown is invalid/);
    // A path on this server is a logo too.
    expect((await save(admin, { logo: '/favicon.svg' })).status).toBe(200);
    expect((await look(demo.code)).body.data.page.logo).toBe('/favicon.svg');
    await call(server, 'POST', TRACE_PAGE_SETTING_CALLS.reset, { token: admin });
  });

  test('previews unsaved settings with the public answer, counting no scan, own codes only', async () => {
    const scans = (await look(demo.code)).body.data.scans.count;
    const preview = await call<{ data: PublicTrace }>(
      server,
      'POST',
      TRACE_PAGE_SETTING_CALLS.preview,
      {
        token: admin,
        body: { code: demo.code, title: 'Preview only', sections: { logistics: false } },
      },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.page.title).toBe('Preview only');
    expect(preview.body.data.shipments).toEqual([]);
    expect(preview.body.data.scans.count).toBe(scans);
    // Nothing was saved, and no scan was counted.
    expect((await read(admin)).body.data.title).toBeNull();
    expect((await look(demo.code)).body.data.scans.count).toBe(scans + 1);
    // Another tenant's code is not there to preview.
    const other = await call(server, 'POST', TRACE_PAGE_SETTING_CALLS.preview, {
      token: admin,
      body: { code: acme.code },
    });
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('AcmePageK');
    // Without a code: the tenant's newest batch.
    const newest = await call<{ data: PublicTrace }>(
      server,
      'POST',
      TRACE_PAGE_SETTING_CALLS.preview,
      {
        token: acmeAdmin,
        body: {},
      },
    );
    expect(newest.status).toBe(200);
    expect(newest.body.data.code).toBe(acme.code);
  });

  test('is an administrator’s page: the default operator is refused every call', async () => {
    for (const [method, url] of [
      ['GET', TRACE_PAGE_SETTING_CALLS.query],
      ['POST', TRACE_PAGE_SETTING_CALLS.save],
      ['POST', TRACE_PAGE_SETTING_CALLS.reset],
      ['POST', TRACE_PAGE_SETTING_CALLS.preview],
    ] as const) {
      const answer = await call(server, method, url, {
        token: operator,
        body: method === 'POST' ? { title: 'Operator' } : undefined,
      });
      expect(answer.status, url).toBe(403);
    }
  });
});
