import {
  newTraceCode,
  publicTraceUrl,
  SUSPICIOUS_CLIENTS_PER_DAY,
  SUSPICIOUS_SCANS,
  translate,
  type PublicTrace,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { logoOf, sectionsOf, suspicionOf } from './public-trace.service';
import { seedChain, type Chain } from './public-trace-test-kit';

describe('public trace page rules', () => {
  it('calls a code suspicious past 200 scans, or past 20 places within a day', () => {
    expect(suspicionOf(SUSPICIOUS_SCANS, SUSPICIOUS_CLIENTS_PER_DAY)).toBeNull();
    expect(suspicionOf(SUSPICIOUS_SCANS + 1, 1)).toBe('scans');
    expect(suspicionOf(5, SUSPICIOUS_CLIENTS_PER_DAY + 1)).toBe('clients');
  });

  it('shows every section the settings do not turn off', () => {
    expect(sectionsOf(null)).toMatchObject({ product: true, sensors: true, scans: true });
    expect(sectionsOf({ sensors: false, product: 'no' })).toMatchObject({
      sensors: false,
      product: true,
    });
  });

  it('answers a logo on this server or inline, never another site’s', () => {
    expect(logoOf('/api/files/logo.png')).toBe('/api/files/logo.png');
    expect(logoOf('data:image/png;base64,iVBORw0KGgo=')).toMatch(/^data:image\/png/);
    for (const other of [
      'https://x.example/l.png',
      '//x.example/l.png',
      '/\\x.example',
      'javascript:1',
    ])
      expect(logoOf(other), other).toBeNull();
    expect(logoOf(null)).toBeNull();
  });
});

describe.each(BACKENDS)('public trace page on $backend', ({ backend, available }) => {
  let server: TestServer;
  let demo: Chain;
  let acme: Chain;
  const test = it.skipIf(!available);
  let address = 0;
  /** A fresh client address per call, as the bad-input suite does: the rate limit stays out of the way. */
  const look = (code: string, headers: Record<string, string> = {}) =>
    call<{ code: number; message: string; data: PublicTrace }>(
      server,
      'GET',
      publicTraceUrl(code),
      {
        ip: `198.51.100.${(address++ % 250) + 1}`,
        headers: { 'user-agent': 'trace-test/1', ...headers },
      },
    );

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend, config: { trustProxy: 1 } });
    demo = await seedChain(server.db, 'demo', 'DemoMarkQ');
    acme = await seedChain(server.db, 'acme', 'AcmeMarkZ');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('answers the batch without a sign-in: product, village, work, sensors, shipments', async () => {
    const answer = await look(demo.code);
    expect(answer.status).toBe(200);
    const trace = answer.body.data;
    expect(trace.code).toBe(demo.code);
    expect(trace.recall).toEqual({ recalled: false, at: null, reason: null });
    expect(trace.product).toMatchObject({ cropName: 'Rice DemoMarkQ', packageCount: 100 });
    expect(trace.producer).toMatchObject({ name: 'Producer DemoMarkQ', code: 'P-DemoMarkQ' });
    const [origin] = trace.origins;
    expect(origin!.base).toEqual({ name: 'Base DemoMarkQ', village: 'Village DemoMarkQ' });
    // Village level: no address, no coordinates anywhere in the answer.
    expect(JSON.stringify(answer.body)).not.toContain('Secret address');
    expect(JSON.stringify(answer.body)).not.toContain('116.12');
    const spraying = origin!.farmwork.find((work) => work.workType === 'spraying')!;
    expect(spraying).toMatchObject({ source: 'entered', phiDays: 7, respected: true });
    expect(origin!.farmwork.find((work) => work.workType === 'fertilizing')!.respected).toBeNull();
    // 35 days of hourly readings: 840 hours of 0.5 mm, 10…30 °C, 20…40 %.
    const sensors = origin!.sensors!;
    expect(sensors.source).toBe('sensor');
    expect(sensors.devices).toBe(1);
    expect(sensors.rainfall).toMatchObject({ source: 'sensor', readings: 840 });
    expect(sensors.rainfall!.totalMm).toBe(420);
    expect(sensors.temperature).toMatchObject({ source: 'sensor', min: 10, max: 30 });
    expect(sensors.temperature!.mean).toBeGreaterThan(19);
    expect(sensors.temperature!.mean).toBeLessThan(21);
    expect(sensors.soilMoisture!.mean).toBeGreaterThan(29);
    expect(trace.shipments).toEqual([
      expect.objectContaining({
        source: 'entered',
        carrier: 'Carrier DemoMarkQ',
        temperature: { min: 4, max: 7.5, readings: 2 },
      }),
    ]);
  });

  test('counts each look-up as a scan, keeping a hash of the address, never the address', async () => {
    const first = (await look(acme.code)).body.data.scans;
    const second = (await look(acme.code.toLowerCase().replace(/(.{4})/g, '$1-'))).body.data.scans;
    expect(second.count).toBe(first.count + 1);
    expect(second.firstAt).toBe(first.firstAt);
    expect(second.suspicious).toBe(false);
    const rows = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ client_hash: string; user_agent: string }>(
        'SELECT client_hash, user_agent FROM trace_scan WHERE package_id = $1',
        [acme.packageId],
      );
      return rows;
    });
    expect(rows.length).toBe(second.count);
    expect(rows.every((row) => row.user_agent === 'trace-test/1')).toBe(true);
    expect(rows.some((row) => row.client_hash.includes('198.51'))).toBe(false);
  });

  test('a recalled harvest batch shows its package batch recalled, with the reason', async () => {
    await server.db.system((sql) =>
      sql.query(
        `UPDATE trace_harvest SET recalled_at = now(), recall_reason = 'Residue above limit' WHERE id = $1`,
        [demo.harvestId],
      ),
    );
    try {
      const trace = (await look(demo.code)).body.data;
      expect(trace.recall.recalled).toBe(true);
      expect(trace.recall.reason).toBe('Residue above limit');
      expect(trace.recall.at).not.toBeNull();
      expect(trace.origins[0]!.harvest.recalled).toBe(true);
    } finally {
      await server.db.system((sql) =>
        sql.query(
          `UPDATE trace_harvest SET recalled_at = NULL, recall_reason = NULL WHERE id = $1`,
          [demo.harvestId],
        ),
      );
    }
  });

  test('an unknown code is a translated 404; a malformed one a 400 naming the code', async () => {
    const unknown = newTraceCode();
    const zh = await look(unknown, { 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(zh.status).toBe(404);
    expect(zh.body.message).toBe(translate('zh', 'trace.public.notFound', { code: unknown }));
    const en = await look(unknown, { 'accept-language': 'en-US' });
    expect(en.body.message).toBe(translate('en', 'trace.public.notFound', { code: unknown }));
    const bad = await look('ABC', { 'accept-language': 'en' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Trace code');
    // One character changed: the check character refuses it before the database is asked.
    const typo = `${demo.code.slice(0, 11)}${demo.code[11] === '0' ? '1' : '0'}`;
    expect((await look(typo)).status).toBe(400);
  });

  test("a tenant's code never shows another tenant's data", async () => {
    for (const [own, other] of [
      [demo, acme],
      [acme, demo],
    ] as const) {
      const answer = await look(own.code);
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body).toLowerCase()).toContain(own.marker);
      expect(JSON.stringify(answer.body).toLowerCase()).not.toContain(other.marker);
    }
    // Acme's plot linked to demo's device (as a forged row): its readings still never show.
    const leaked = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `SELECT d.id::text FROM iot_device d JOIN tenant t ON t.id = d.tenant_id
          WHERE t.tenant_code = 'demo' AND d.device_name LIKE 'station DemoMarkQ%'`,
      );
      return rows[0]!.id;
    });
    const forged = await server.db
      .system((sql) =>
        sql.query(
          `INSERT INTO trace_area_device (tenant_id, area_id, device_id)
           SELECT a.tenant_id, a.id, $1 FROM trace_area a WHERE a.area_name = 'Plot AcmeMarkZ'`,
          [leaked],
        ),
      )
      .then(
        () => true,
        () => false,
      );
    expect(forged, 'the database refuses a plot linked to another tenant’s device').toBe(false);
  });

  test('the tenant’s page settings hide sections, and scans from many places are suspicious', async () => {
    await server.db.system(async (sql) => {
      await sql.query(
        `INSERT INTO trace_page_setting (tenant_id, title, color, logo, sections)
         SELECT id, 'Acme farms', '#123456', 'https://elsewhere.example/logo.png',
                '{"sensors": false, "farmwork": false}' FROM tenant
          WHERE tenant_code = 'acme'`,
      );
      await sql.query(
        `INSERT INTO trace_scan (tenant_id, package_id, client_hash)
         SELECT tenant_id, id, 'client-' || n FROM trace_package, generate_series(1, $2::int) n
          WHERE id = $1`,
        [acme.packageId, SUSPICIOUS_CLIENTS_PER_DAY + 1],
      );
    });
    const trace = (await look(acme.code)).body.data;
    // Another site's logo is left out (the page's CSP would refuse it anyway).
    expect(trace.page).toMatchObject({ title: 'Acme farms', color: '#123456', logo: null });
    expect(trace.page.sections).toMatchObject({ sensors: false, farmwork: false, product: true });
    expect(trace.origins[0]!.sensors).toBeNull();
    expect(trace.origins[0]!.farmwork).toEqual([]);
    expect(trace.scans).toMatchObject({ suspicious: true, reason: 'clients' });

    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO trace_scan (tenant_id, package_id, client_hash, scanned_at)
         SELECT tenant_id, id, 'old', now() - interval '3 days'
           FROM trace_package, generate_series(1, $2::int) WHERE id = $1`,
        [demo.packageId, SUSPICIOUS_SCANS],
      ),
    );
    expect((await look(demo.code)).body.data.scans).toMatchObject({
      suspicious: true,
      reason: 'scans',
    });
  });
});
