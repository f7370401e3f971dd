import { publicTraceUrl, type PublicTrace } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/**
 * The demo's newest batch (demo-trace.ts seedNewestBatch) grew while the demo's simulated
 * history was recorded: its public page, the first one a user opens, shows what the plot's
 * devices recorded. A fresh server as `npm start` makes it, with a few days of history.
 */
describe.each(BACKENDS)('the demo’s newest trace batch on $backend', ({ backend, available }) => {
  let server: TestServer;
  const test = it.skipIf(!available);
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend, config: { demoHistoryDays: 3 } });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  test('has rainfall, temperature and soil moisture on its public page, and keeps the rules', async () => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ code: string }>(
        `SELECT p.trace_code AS code FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
          WHERE t.tenant_code = 'demo' ORDER BY p.packed_at DESC, p.id DESC LIMIT 1`,
      ),
    );
    const answer = await call<{ data: PublicTrace }>(server, 'GET', publicTraceUrl(rows[0]!.code));
    expect(answer.status).toBe(200);
    const trace = answer.body.data;
    expect(trace.recall.recalled).toBe(false);
    const sensors = trace.origins[0]!.sensors!;
    expect(sensors.rainfall?.readings).toBeGreaterThan(0);
    expect(sensors.temperature?.readings).toBeGreaterThan(0);
    expect(sensors.soilMoisture?.readings).toBeGreaterThan(0);
    // The spraying's interval was respected; less packed than harvested, less shipped than packed.
    const spraying = trace.origins[0]!.farmwork.find((work) => work.workType === 'spraying');
    expect(spraying?.respected).toBe(true);
    const product = trace.product!;
    expect(product.packageCount * product.netQuantity).toBeLessThanOrEqual(
      trace.origins[0]!.harvest.quantity,
    );
    expect(trace.shipments[0]!.packageCount).toBeLessThanOrEqual(product.packageCount);
  });
});
