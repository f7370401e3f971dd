import { readFileSync } from 'node:fs';
import {
  newTraceCode,
  TRACE_CHAIN_CALLS,
  translate,
  type TraceBatch,
  type TraceChainView,
} from '@shuili/contract';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import jsQR from 'jsqr';
import { getDocument, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Database } from '../../../db/database';
import { temperaturesOf } from './chain-view';

/** The official EPCIS 2.0 JSON schema, vendored beside the export (packages/contract). */
const schema = JSON.parse(
  readFileSync(
    new URL(
      '../../../../../../packages/contract/src/trace/fixtures/EPCIS-JSON-Schema.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as object;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validateEpcis = ajv.compile(schema);

const DAY = 86_400_000;

interface SmallChain {
  marker: string;
  harvestA: string;
  batchA: string;
  harvestB: string;
  process: string;
  processNo: string;
  processPackage: string;
  processCode: string;
  harvestPackage: string;
  harvestCode: string;
}

/**
 * A small chain of one tenant: two plots' harvests A (a spraying whose 7-day interval it
 * respects) and B (harvested 3 days after a 10-day spraying: not respected), a milling of
 * both, a package batch of the milling shipped cold, and a package batch straight from A.
 */
async function seedSmallChain(db: Database, tenant: string, marker: string): Promise<SmallChain> {
  const sown = new Date(Date.now() - 120 * DAY);
  const harvested = new Date(Date.now() - 30 * DAY);
  const time = (base: Date, days: number) => new Date(base.getTime() + days * DAY).toISOString();
  return db.system(async (sql) => {
    const { rows } = await sql.query<{ id: string }>(
      'SELECT id::text FROM tenant WHERE tenant_code = $1',
      [tenant],
    );
    const t = rows[0]!.id;
    const one = async (text: string, params: unknown[]) =>
      (await sql.query<{ id: string }>(`${text} RETURNING id::text AS id`, [t, ...params])).rows[0]!
        .id;
    const producer = await one(
      `INSERT INTO trace_producer (tenant_id, producer_name, producer_code, cert_language, commitment)
       VALUES ($1, $2, $3, 'en', 'Intervals respected')`,
      [`Coop ${marker}`, `C-${marker}`],
    );
    const base = await one(
      `INSERT INTO trace_base (tenant_id, base_name, producer_id, village) VALUES ($1, $2, $3, $4)`,
      [`Base ${marker}`, producer, `Village ${marker}`],
    );
    const plant = await one(
      `INSERT INTO trace_plant (tenant_id, crop_name, variety, gtin) VALUES ($1, 'Wheat', $2, '06901234567892')`,
      [`Jimai ${marker}`],
    );
    const plots: string[] = [];
    const plantings: string[] = [];
    for (const name of ['North', 'South']) {
      const plot = await one(
        `INSERT INTO trace_area (tenant_id, area_name, base_id, area_mu) VALUES ($1, $2, $3, 10)`,
        [`${name} ${marker}`, base],
      );
      plots.push(plot);
      plantings.push(
        await one(
          `INSERT INTO trace_planting (tenant_id, planting_code, area_id, plant_id, sown_at)
           VALUES ($1, $2, $3, $4, $5)`,
          [`PL-${name}-${marker}`, plot, plant, sown.toISOString()],
        ),
      );
    }
    await sql.query(
      `INSERT INTO trace_farmwork (tenant_id, planting_id, work_type, product, done_at, phi_days)
       VALUES ($1, $2, 'spraying', 'Spray A', $4, 7), ($1, $3, 'spraying', 'Spray B', $5, 10)`,
      [t, plantings[0], plantings[1], time(harvested, -10), time(harvested, -3)],
    );
    await sql.query(
      `INSERT INTO trace_growth_record (tenant_id, planting_id, recorded_at, stage, note)
       VALUES ($1, $2, $3, 'flowering', $4)`,
      [t, plantings[0], time(harvested, -40), `Flowers ${marker}`],
    );
    const batchA = `HA-${marker}`;
    const harvestA = await one(
      `INSERT INTO trace_harvest (tenant_id, batch_no, planting_id, harvested_at, quantity)
       VALUES ($1, $2, $3, $4, 1000)`,
      [batchA, plantings[0], harvested.toISOString()],
    );
    const harvestB = await one(
      `INSERT INTO trace_harvest (tenant_id, batch_no, planting_id, harvested_at, quantity)
       VALUES ($1, $2, $3, $4, 500)`,
      [`HB-${marker}`, plantings[1], harvested.toISOString()],
    );
    const processNo = `M-${marker}`;
    const process = await one(
      `INSERT INTO trace_process (tenant_id, process_no, process_type, started_at, ended_at,
                                  expected_yield, output_quantity)
       VALUES ($1, $2, 'milling', $3, $4, 0.75, 600)`,
      [processNo, time(harvested, 2), time(harvested, 2.3)],
    );
    await sql.query(
      `INSERT INTO trace_process_input (tenant_id, process_id, harvest_id, quantity)
       VALUES ($1, $2, $3, 500), ($1, $2, $4, 300)`,
      [t, process, harvestA, harvestB],
    );
    const processCode = newTraceCode();
    const processPackage = await one(
      `INSERT INTO trace_package (tenant_id, trace_code, process_id, gtin, lot, package_count,
                                  net_quantity, packed_at)
       VALUES ($1, $2, $3, '06901234567892', $4, 100, 5, $5)`,
      [processCode, process, `L${marker}`.slice(0, 20), time(harvested, 3)],
    );
    const departed = new Date(harvested.getTime() + 4 * DAY);
    await sql.query(
      `INSERT INTO trace_shipment (tenant_id, package_id, package_count, carrier, from_place, to_place,
                                   departed_at, arrived_at, temperatures)
       VALUES ($1, $2, 60, $3, 'Mill', 'Market', $4, $5, $6)`,
      [
        t,
        processPackage,
        `Carrier ${marker}`,
        departed.toISOString(),
        time(departed, 0.25),
        JSON.stringify([
          { at: time(departed, 0.05), celsius: 4 },
          { at: time(departed, 0.1), celsius: 6.5 },
          { at: 'not a time', celsius: 99 },
        ]),
      ],
    );
    const harvestCode = newTraceCode();
    const harvestPackage = await one(
      `INSERT INTO trace_package (tenant_id, trace_code, harvest_id, package_count, net_quantity, packed_at)
       VALUES ($1, $2, $3, 20, 10, $4)`,
      [harvestCode, harvestA, time(harvested, 1)],
    );
    return {
      marker,
      harvestA,
      batchA,
      harvestB,
      process,
      processNo,
      processPackage,
      processCode,
      harvestPackage,
      harvestCode,
    };
  });
}

type RenderParameters = Parameters<PDFPageProxy['render']>[0];
interface Canvas2d {
  getImageData(
    x: number,
    y: number,
    width: number,
    height: number,
  ): { data: Uint8ClampedArray; width: number; height: number };
}

/** The text of a PDF's pages and the QR code read from the first page as printed. */
async function readPdf(
  bytes: Buffer,
  area: { x: number; y: number; width: number; height: number },
): Promise<{ pages: number; text: string; qr: string | undefined }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let page = 1; page <= pdf.numPages; page++) {
    const content = await (await pdf.getPage(page)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  const scale = 3;
  const page = await pdf.getPage(1);
  const viewport = page.getViewport({ scale });
  const factory = pdf.canvasFactory as {
    create(w: number, h: number): { canvas: RenderParameters['canvas']; context: Canvas2d };
  };
  const { canvas, context } = factory.create(viewport.width, viewport.height);
  const canvasContext = context as unknown as RenderParameters['canvasContext'];
  await page.render({ canvas, canvasContext, viewport }).promise;
  const image = context.getImageData(
    area.x * scale,
    area.y * scale,
    area.width * scale,
    area.height * scale,
  );
  const qr = jsQR(image.data, image.width, image.height)?.data;
  await pdf.destroy();
  return { pages: texts.length, text: texts.join('\n'), qr };
}

describe('temperatures as stored', () => {
  it('keeps readings with a time and a number only', () => {
    expect(
      temperaturesOf([
        { at: '2026-06-01T01:00:00Z', celsius: 4 },
        { at: 'x', celsius: 5 },
        { at: '2026-06-01T02:00:00Z', celsius: 'warm' },
        null,
      ]),
    ).toEqual([{ at: '2026-06-01T01:00:00.000Z', celsius: 4 }]);
    expect(temperaturesOf(null)).toEqual([]);
  });
});

describe.each(BACKENDS)('a batch chain (resume) on $backend', ({ backend, available }) => {
  let server: TestServer;
  let demo: SmallChain;
  let acme: SmallChain;
  let demoToken: string;
  let acmeToken: string;
  let operatorToken: string;
  const test = it.skipIf(!available);

  const chain = (token: string, query: Record<string, string>, lang = 'en') =>
    call<{ code: number; message: string; data: TraceChainView; errors?: { field: string }[] }>(
      server,
      'GET',
      TRACE_CHAIN_CALLS.query,
      { token, query, lang },
    );
  const download = async (url: string, token: string, query: Record<string, string>) => {
    const target = new URL(url, server.url);
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
    const response = await fetch(target, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, cookie: 'language=en' },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      disposition: response.headers.get('content-disposition') ?? '',
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    demo = await seedSmallChain(server.db, 'demo', 'DemoChainQ');
    acme = await seedSmallChain(server.db, 'acme', 'AcmeChainZ');
    [demoToken, acmeToken, operatorToken] = await Promise.all([
      signIn(server, 'demo', 'admin', 'admin123').then((token) => token.access_token),
      signIn(server, 'acme', 'admin', 'admin123').then((token) => token.access_token),
      signIn(server, 'demo', 'operator', 'operator123').then((token) => token.access_token),
    ]);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('reads a package batch backwards to its plots, farm work and growth, forwards to its shipment', async () => {
    const answer = await chain(demoToken, { code: demo.processCode.toLowerCase() });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const view = answer.body.data;
    expect(view.start).toEqual({
      kind: 'package',
      id: demo.processPackage,
      number: demo.processCode,
    });
    // Backwards: the milling took from both harvests, on both plots.
    expect(view.processes.map((one) => one.processNo)).toEqual([demo.processNo]);
    expect(view.processes[0]).toMatchObject({
      inputQuantity: 800,
      outputQuantity: 600,
      packedQuantity: 500,
      recalled: false,
    });
    expect(view.harvests.map((one) => one.batchNo).sort()).toEqual([demo.batchA, 'HB-DemoChainQ']);
    expect(view.plots.map((one) => one.name).sort()).toEqual([
      'North DemoChainQ',
      'South DemoChainQ',
    ]);
    expect(view.bases).toEqual([expect.objectContaining({ name: 'Base DemoChainQ' })]);
    expect(view.producers).toEqual([expect.objectContaining({ code: 'C-DemoChainQ' })]);
    expect(view.plants).toEqual([expect.objectContaining({ variety: 'Jimai DemoChainQ' })]);
    const spray = (product: string) => view.farmwork.find((one) => one.product === product)!;
    expect(spray('Spray A')).toMatchObject({ phiDays: 7, respected: true });
    expect(spray('Spray B')).toMatchObject({ phiDays: 10, respected: false });
    expect(view.growthRecords.map((one) => one.note)).toEqual(['Flowers DemoChainQ']);
    // Forwards: only this package batch and its shipment (not the one packed straight from A).
    expect(view.packages.map((one) => one.traceCode)).toEqual([demo.processCode]);
    expect(view.packages[0]).toMatchObject({ shippedCount: 60, packageCount: 100 });
    expect(view.packages[0]!.digitalLink).toMatch(/^https:\/\/id\.gs1\.org\/01\/06901234567892\//);
    expect(view.shipments).toHaveLength(1);
    expect(view.shipments[0]).toMatchObject({
      packageCount: 60,
      minCelsius: 4,
      maxCelsius: 6.5,
      recalled: false,
    });
    expect(view.shipments[0]!.temperatures).toHaveLength(2);
  });

  test('reads a harvest batch forwards to every process, package batch and shipment made of it', async () => {
    const answer = await chain(demoToken, { batch: demo.batchA.toLowerCase() });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const view = answer.body.data;
    expect(view.start).toMatchObject({ kind: 'harvest', id: demo.harvestA, number: demo.batchA });
    expect(view.processes.map((one) => one.id)).toEqual([demo.process]);
    expect(view.packages.map((one) => one.traceCode).sort()).toEqual(
      [demo.processCode, demo.harvestCode].sort(),
    );
    expect(view.shipments).toHaveLength(1);
    // By process number and by id, the same process.
    const byProcess = await chain(demoToken, { batch: demo.processNo });
    expect(byProcess.body.data.start).toMatchObject({ kind: 'process', id: demo.process });
    const byId = await chain(demoToken, { kind: 'process', id: demo.process });
    expect(byId.body.data.packages.map((one) => one.id)).toEqual([demo.processPackage]);
  });

  test('offers the batches by the start of their number, the newest first', async () => {
    const found = await call<{ data: TraceBatch[] }>(server, 'GET', TRACE_CHAIN_CALLS.batches, {
      token: demoToken,
      query: { q: 'ha-democ' },
    });
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([
      expect.objectContaining({
        kind: 'harvest',
        id: demo.harvestA,
        product: 'Wheat · Jimai DemoChainQ',
      }),
    ]);
    const code = `${demo.processCode.slice(0, 4)}-${demo.processCode.slice(4, 8)}`;
    const byCode = await call<{ data: TraceBatch[] }>(server, 'GET', TRACE_CHAIN_CALLS.batches, {
      token: demoToken,
      query: { q: code },
    });
    expect(byCode.body.data.map((one) => one.number)).toContain(demo.processCode);
    const recent = await call<{ data: TraceBatch[] }>(server, 'GET', TRACE_CHAIN_CALLS.batches, {
      token: demoToken,
    });
    expect(recent.body.data.length).toBeGreaterThan(0);
    const dates = recent.body.data.map((one) => one.at);
    expect([...dates].sort().reverse()).toEqual(dates);
    // Never another tenant's.
    const foreign = await call(server, 'GET', TRACE_CHAIN_CALLS.batches, {
      token: acmeToken,
      query: { q: 'HA-DemoChain' },
    });
    expect(foreign.body.data).toEqual([]);
  });

  test('exports the chain as EPCIS 2.0 JSON-LD valid against the GS1 schema', async () => {
    const file = await download(TRACE_CHAIN_CALLS.epcis, demoToken, { batch: demo.batchA });
    expect(file.status, file.bytes.toString()).toBe(200);
    expect(file.type).toMatch(/^application\/ld\+json/);
    expect(file.disposition).toContain(`epcis-${demo.batchA}.jsonld`);
    const document = JSON.parse(file.bytes.toString('utf8')) as {
      epcisBody: { eventList: Array<{ type: string; bizStep?: string; action?: string }> };
    };
    const valid = validateEpcis(document);
    expect(validateEpcis.errors ?? [], JSON.stringify(validateEpcis.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    const events = document.epcisBody.eventList;
    const of = (type: string, bizStep: string) =>
      events.filter((event) => event.type === type && event.bizStep === bizStep);
    expect(of('ObjectEvent', 'commissioning')).toHaveLength(2);
    expect(of('TransformationEvent', 'creating_class_instance')).toHaveLength(1);
    expect(of('AggregationEvent', 'packing')).toHaveLength(2);
    expect(of('ObjectEvent', 'shipping')).toHaveLength(1);
    expect(JSON.stringify(document)).toContain('urn:shuili:trace:demo:');
  });

  test('prints the label sheet: a PDF whose QR codes open the public page', async () => {
    const file = await download(TRACE_CHAIN_CALLS.labels, operatorToken, {
      packageId: demo.processPackage,
      copies: '30',
    });
    expect(file.status, file.bytes.toString()).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(file.bytes, { x: 20, y: 28, width: 100, height: 100 });
    expect(pdf.pages).toBe(2);
    // Lines wrap where they may: compare without the spaces.
    expect(pdf.text.replace(/\s/g, '')).toContain('Wheat·JimaiDemoChainQ');
    expect(pdf.qr).toBe(`${server.config.publicUrl}/traceHome?code=${demo.processCode}`);
    for (const copies of ['0', '2401', 'many']) {
      const refused = await call(server, 'POST', TRACE_CHAIN_CALLS.labels, {
        token: demoToken,
        query: { packageId: demo.processPackage, copies },
        lang: 'zh',
      });
      expect(refused.status, copies).toBe(400);
      expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual([
        'copies',
      ]);
      expect(refused.body.message).toMatch(/标签数量/);
    }
  });

  test('prints the compliance certificate in the producer’s language, and none for a recalled batch', async () => {
    const file = await download(TRACE_CHAIN_CALLS.certificate, operatorToken, {
      packageId: demo.processPackage,
    });
    expect(file.status, file.bytes.toString()).toBe(200);
    expect(file.type).toBe('application/pdf');
    const pdf = await readPdf(file.bytes, { x: 430, y: 55, width: 150, height: 140 });
    expect(pdf.pages).toBe(1);
    for (const expected of [
      'Certificate of Compliance',
      'Wheat (Jimai DemoChainQ)',
      '100',
      'Coop DemoChainQ',
      'Village DemoChainQ',
    ])
      expect(pdf.text).toContain(expected);
    expect(pdf.qr).toBe(`${server.config.publicUrl}/traceHome?code=${demo.processCode}`);
  });

  test('a recall shows forwards on every node made of the batch', async () => {
    await server.db.system((sql) =>
      sql.query(
        `UPDATE trace_harvest SET recalled_at = now(), recall_reason = 'Residue' WHERE id = $1`,
        [demo.harvestB],
      ),
    );
    try {
      const view = (await chain(demoToken, { code: demo.processCode })).body.data;
      const harvestB = view.harvests.find((one) => one.id === demo.harvestB)!;
      expect(harvestB).toMatchObject({ recalled: true, recallReason: 'Residue' });
      expect(view.harvests.find((one) => one.id === demo.harvestA)!.recalled).toBe(false);
      expect(view.processes[0]).toMatchObject({ recalled: true, recalledAt: null });
      expect(view.packages[0]).toMatchObject({ recalled: true, recalledAt: null });
      expect(view.shipments[0]!.recalled).toBe(true);
      // Packed straight from A: not recalled.
      const fromA = (await chain(demoToken, { code: demo.harvestCode })).body.data;
      expect(fromA.packages[0]!.recalled).toBe(false);
      const refused = await call(server, 'POST', TRACE_CHAIN_CALLS.certificate, {
        token: demoToken,
        query: { packageId: demo.processPackage },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].field).toBe('packageId');
      const epcis = await download(TRACE_CHAIN_CALLS.epcis, demoToken, { code: demo.processCode });
      const events = JSON.parse(epcis.bytes.toString()).epcisBody.eventList as Array<{
        disposition?: string;
      }>;
      expect(events.filter((event) => event.disposition === 'recalled')).toHaveLength(1);
      expect(validateEpcis(JSON.parse(epcis.bytes.toString()))).toBe(true);
    } finally {
      await server.db.system((sql) =>
        sql.query(
          `UPDATE trace_harvest SET recalled_at = NULL, recall_reason = NULL WHERE id = $1`,
          [demo.harvestB],
        ),
      );
    }
  });

  test("another tenant's id, code or batch number is a 404 that shows none of it", async () => {
    const probes: Array<[string, string, Record<string, string>]> = [
      ['GET', TRACE_CHAIN_CALLS.query, { kind: 'package', id: demo.processPackage }],
      ['GET', TRACE_CHAIN_CALLS.query, { kind: 'harvest', id: demo.harvestA }],
      ['GET', TRACE_CHAIN_CALLS.query, { code: demo.processCode }],
      ['GET', TRACE_CHAIN_CALLS.query, { batch: demo.batchA }],
      ['POST', TRACE_CHAIN_CALLS.epcis, { batch: demo.processNo }],
      ['POST', TRACE_CHAIN_CALLS.labels, { packageId: demo.processPackage }],
      ['POST', TRACE_CHAIN_CALLS.certificate, { packageId: demo.processPackage }],
    ];
    for (const [method, url, query] of probes) {
      const answer = await call(server, method, url, { token: acmeToken, query, lang: 'en' });
      expect(answer.status, `${url} ${JSON.stringify(query)}`).toBe(404);
      // The answer names what was asked, nothing of what demo holds.
      expect(JSON.stringify(answer.body)).not.toMatch(/Coop|North|South|Jimai|Village|Flowers/);
      expect(answer.body.errors).toHaveLength(1);
    }
    // acme's own chain is acme's.
    const own = await chain(acmeToken, { code: acme.processCode });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toMatch(/DemoChainQ/i);
  });

  test('bad input is a translated 400 naming the field', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'batch'],
      [{ id: demo.harvestA }, 'kind'],
      [{ kind: 'plot', id: '1' }, 'kind'],
      [{ kind: 'harvest', id: 'x1' }, 'id'],
      [{ code: 'OOPS!' }, 'code'],
    ];
    for (const [query, field] of cases) {
      const answer = await chain(demoToken, query, 'zh');
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body.errors!.map((error) => error.field)).toEqual([field]);
      expect(answer.body.message).toMatch(/[\u3400-\u9fff]/);
    }
    const unknown = await chain(demoToken, { batch: 'H-NOPE' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(
      translate('en', 'trace.chain.notFound', { field: 'Batch number', value: 'H-NOPE' }),
    );
  });
});
