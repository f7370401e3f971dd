import {
  entityCalls,
  traceAreaEntity,
  traceBaseEntity,
  traceFarmworkEntity,
  traceHarvestEntity,
  tracePackageEntity,
  tracePlantEntity,
  tracePlantingEntity,
  traceProcessEntity,
  traceProcessInputEntity,
  traceProducerEntity,
  traceShipmentEntity,
  type EntityDef,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, type CallResult } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/*
 * The traceability rules over HTTP (docs/traceability.md "Rules"; the generic entity behaviour is
 * entity-contract.test's): the pre-harvest interval, both mass balances with their figures (and
 * concurrent packing of one harvest: only what fits passes), recall flowing forwards through the
 * chain, plot outlines and GTIN check digits, and tenant isolation.
 */

const POLYGON = JSON.stringify({
  type: 'Polygon',
  coordinates: [
    [
      [117.2, 36.7],
      [117.2011, 36.7],
      [117.2011, 36.7009],
      [117.2, 36.7009],
      [117.2, 36.7],
    ],
  ],
});

/** The one field a 400 names, with its translated message. */
function fieldError(result: CallResult, field: string): string {
  const errors = (result.body?.errors ?? []) as Array<{ field: string; message: string }>;
  const found = errors.find((error) => error.field === field);
  expect(found, `${result.status} ${JSON.stringify(result.body)}`).toBeDefined();
  return found!.message;
}

describe.each(BACKENDS)('traceability rules on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let acme: string;
  let plotId: string;
  let plantId: string;
  let serial = 0;

  const add = (entity: EntityDef, body: Record<string, unknown>, lang?: string, as = token) =>
    call(server, 'POST', entityCalls(entity).add, { token: as, lang, body });
  const update = (entity: EntityDef, body: Record<string, unknown>, lang?: string) =>
    call(server, 'PUT', entityCalls(entity).update, { token, lang, body });
  const added = async (entity: EntityDef, body: Record<string, unknown>) => {
    const result = await add(entity, body);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.data as Record<string, unknown> & { id: string };
  };
  const row = async (entity: EntityDef, id: string, as = token) => {
    const result = await call(server, 'GET', entityCalls(entity).query, {
      token: as,
      query: { pageSize: '10000', sort: 'id', order: 'descend' },
    });
    expect(result.status).toBe(200);
    const list = result.body.data.list as Array<Record<string, unknown>>;
    return list.find((one) => String(one.id) === String(id));
  };
  const newPlanting = async () =>
    (
      await added(tracePlantingEntity, {
        plantingCode: `T${backend}${++serial}`,
        areaId: plotId,
        plantId,
        sownAt: '2026-03-01T00:00:00.000Z',
      })
    ).id;
  const newHarvest = async (quantity: number) =>
    (
      await added(traceHarvestEntity, {
        plantingId: await newPlanting(),
        harvestedAt: '2026-07-01T00:00:00.000Z',
        quantity,
      })
    ).id;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const producer = await added(traceProducerEntity, {
      producerName: 'Rules coop',
      producerCode: `RULES-${backend}`,
      certLanguage: 'en',
    });
    const base = await added(traceBaseEntity, {
      baseName: `Rules base ${backend}`,
      producerId: producer.id,
      village: 'Testing village',
    });
    const plot = await added(traceAreaEntity, {
      areaName: 'Rules plot',
      baseId: base.id,
      polygon: POLYGON,
    });
    plotId = plot.id;
    plantId = (
      await added(tracePlantEntity, {
        cropName: 'Tomato',
        variety: `Rules ${backend}`,
        category: 'vegetable',
        gtin: '06901234567878',
      })
    ).id;
  });
  afterAll(async () => server?.close());

  test('a plot’s area is computed from its outline; a bad outline is a translated 400', async () => {
    expect(Number((await row(traceAreaEntity, plotId))!.areaMu)).toBeCloseTo(14.9, 0);
    const open = JSON.stringify({
      type: 'Polygon',
      coordinates: [
        [
          [117.2, 36.7],
          [117.3, 36.7],
          [117.3, 36.8],
          [117.2, 36.8],
        ],
      ],
    });
    const base = (await row(traceAreaEntity, plotId))!.baseId;
    for (const polygon of [open, '{"type":"Point","coordinates":[1,2]}', 'not json']) {
      const refused = await add(traceAreaEntity, { areaName: 'Bad', baseId: base, polygon }, 'zh');
      expect(refused.status).toBe(400);
      expect(fieldError(refused, 'polygon')).toContain('GeoJSON');
    }
    const far = POLYGON.replace('117.2,', '217.2,');
    expect(
      (await add(traceAreaEntity, { areaName: 'Far', baseId: base, polygon: far })).status,
    ).toBe(400);
  });

  test('a GTIN with a wrong check digit is refused, naming the right digit', async () => {
    const refused = await add(tracePlantEntity, {
      cropName: 'Wheat',
      variety: 'Wrong digit',
      category: 'grain',
      gtin: '06901234567891',
    });
    expect(refused.status).toBe(400);
    expect(fieldError(refused, 'gtin')).toContain('2');
  });

  test('a harvest before the pre-harvest interval is refused with the product and the date', async () => {
    const plantingId = await newPlanting();
    const spraying = {
      plantingId,
      workType: 'spraying',
      product: 'Abamectin 1.8% EC',
      doneAt: '2026-06-10T00:00:00.000Z',
    };
    // A spraying names its interval.
    const noInterval = await add(traceFarmworkEntity, spraying);
    expect(noInterval.status).toBe(400);
    fieldError(noInterval, 'phiDays');
    await added(traceFarmworkEntity, { ...spraying, phiDays: 7 });
    // Another planting of the same plot: the spraying reaches it too.
    const neighbour = await newPlanting();
    for (const [id, lang, words] of [
      [plantingId, 'en', ['Abamectin 1.8% EC', '2026-06-17 08:00', '7 days']],
      [neighbour, 'zh', ['Abamectin 1.8% EC', '2026-06-17 08:00', '安全间隔期7天']],
    ] as const) {
      const early = await add(
        traceHarvestEntity,
        { plantingId: id, harvestedAt: '2026-06-15T00:00:00.000Z', quantity: 100 },
        lang,
      );
      expect(early.status).toBe(400);
      const message = fieldError(early, 'harvestedAt');
      for (const word of words) expect(message).toContain(word);
      fieldError(early, 'plantingId');
    }
    const onTime = await added(traceHarvestEntity, {
      plantingId,
      harvestedAt: '2026-06-17T00:00:00.000Z',
      quantity: 100,
    });
    expect(String(onTime.batchNo)).toMatch(/^H20260617-/);
    // Moving the harvest back into the interval is refused as well.
    const moved = await update(traceHarvestEntity, {
      id: onTime.id,
      harvestedAt: '2026-06-12T00:00:00.000Z',
    });
    expect(moved.status).toBe(400);
    fieldError(moved, 'harvestedAt');
  });

  test('processing and packing never take more than a harvest batch holds', async () => {
    const harvestId = await newHarvest(1000);
    const process = await added(traceProcessEntity, {
      processType: 'washing',
      startedAt: '2026-07-02T00:00:00.000Z',
      expectedYield: 0.9,
    });
    await added(traceProcessInputEntity, { processId: process.id, harvestId, quantity: 600 });
    // 600 taken: packing 500 more is refused with the figures.
    const over = await add(
      tracePackageEntity,
      { harvestId, packageCount: 100, netQuantity: 5, packedAt: '2026-07-03T00:00:00.000Z' },
      'en',
    );
    expect(over.status).toBe(400);
    const message = fieldError(over, 'packageCount');
    for (const figure of ['1000', '600', '500', '400']) expect(message).toContain(figure);
    const fits = await added(tracePackageEntity, {
      harvestId,
      packageCount: 80,
      netQuantity: 5,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    // The variety's GTIN and the batch's number by default; a trace code of 12 characters.
    expect(fits.gtin).toBe('06901234567878');
    expect(String(fits.traceCode)).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(Number((await row(traceHarvestEntity, harvestId))!.takenQuantity)).toBe(1000);
    // Nor can the batch shrink below what was taken, nor an input grow past it.
    const shrink = await update(traceHarvestEntity, { id: harvestId, quantity: 900 });
    expect(shrink.status).toBe(400);
    fieldError(shrink, 'quantity');
    const second = await add(traceProcessInputEntity, {
      processId: (
        await added(traceProcessEntity, {
          processType: 'sorting',
          startedAt: '2026-07-02T00:00:00.000Z',
          expectedYield: 1,
        })
      ).id,
      harvestId,
      quantity: 1,
    });
    expect(second.status).toBe(400);
    fieldError(second, 'quantity');
  });

  test('a process puts out at most its inputs × expected yield, and packs at most its output', async () => {
    const harvestId = await newHarvest(2000);
    const process = await added(traceProcessEntity, {
      processType: 'milling',
      startedAt: '2026-07-02T00:00:00.000Z',
      expectedYield: 0.75,
    });
    await added(traceProcessInputEntity, { processId: process.id, harvestId, quantity: 2000 });
    const over = await update(traceProcessEntity, { id: process.id, outputQuantity: 1600 }, 'zh');
    expect(over.status).toBe(400);
    const message = fieldError(over, 'outputQuantity');
    for (const figure of ['1600', '2000', '0.75', '1500']) expect(message).toContain(figure);
    expect(
      (await update(traceProcessEntity, { id: process.id, outputQuantity: 1500 })).status,
    ).toBe(200);
    const overPacked = await add(tracePackageEntity, {
      processId: process.id,
      packageCount: 301,
      netQuantity: 5,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    expect(overPacked.status).toBe(400);
    expect(fieldError(overPacked, 'packageCount')).toContain('1500');
    const flour = await added(tracePackageEntity, {
      processId: process.id,
      packageCount: 300,
      netQuantity: 5,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    // Output cannot drop below what is packed; an input cannot be lowered under it either.
    const lowered = await update(traceProcessEntity, { id: process.id, outputQuantity: 1000 });
    expect(lowered.status).toBe(400);
    fieldError(lowered, 'outputQuantity');
    // One source only.
    const both = await add(tracePackageEntity, {
      processId: process.id,
      harvestId,
      packageCount: 1,
      netQuantity: 1,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    expect(both.status).toBe(400);
    // Shipments never exceed the packages packed.
    await added(traceShipmentEntity, {
      packageId: flour.id,
      packageCount: 200,
      fromPlace: 'Mill',
      toPlace: 'Market',
      departedAt: '2026-07-04T00:00:00.000Z',
      temperatures: [{ at: '2026-07-04T01:00:00.000Z', celsius: 18 }],
    });
    const overShipped = await add(
      traceShipmentEntity,
      {
        packageId: flour.id,
        packageCount: 101,
        fromPlace: 'Mill',
        toPlace: 'Market',
        departedAt: '2026-07-04T00:00:00.000Z',
      },
      'en',
    );
    expect(overShipped.status).toBe(400);
    const shipped = fieldError(overShipped, 'packageCount');
    for (const figure of ['300', '200', '101', '100']) expect(shipped).toContain(figure);
    expect(Number((await row(tracePackageEntity, flour.id))!.shippedCount)).toBe(200);
  });

  test('packing one harvest concurrently: only what fits passes', async () => {
    const harvestId = await newHarvest(100);
    const tries = await Promise.all(
      Array.from({ length: 6 }, () =>
        add(tracePackageEntity, {
          harvestId,
          packageCount: 6,
          netQuantity: 5,
          packedAt: '2026-07-03T00:00:00.000Z',
        }),
      ),
    );
    const statuses = tries.map((result) => result.status).sort();
    // 100 kg hold three packings of 30 kg: three pass, three are refused.
    expect(statuses).toEqual([200, 200, 200, 400, 400, 400]);
    expect(Number((await row(traceHarvestEntity, harvestId))!.takenQuantity)).toBe(90);
  });

  test('a recall flows forwards: process and packages of a recalled harvest show recalled', async () => {
    const harvestId = await newHarvest(1000);
    const process = await added(traceProcessEntity, {
      processType: 'drying',
      startedAt: '2026-07-02T00:00:00.000Z',
      expectedYield: 0.5,
    });
    await added(traceProcessInputEntity, { processId: process.id, harvestId, quantity: 400 });
    await update(traceProcessEntity, { id: process.id, outputQuantity: 200 });
    const fromProcess = await added(tracePackageEntity, {
      processId: process.id,
      packageCount: 10,
      netQuantity: 10,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    const fromHarvest = await added(tracePackageEntity, {
      harvestId,
      packageCount: 10,
      netQuantity: 10,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    const other = await added(tracePackageEntity, {
      harvestId: await newHarvest(50),
      packageCount: 1,
      netQuantity: 10,
      packedAt: '2026-07-03T00:00:00.000Z',
    });
    const shipment = await added(traceShipmentEntity, {
      packageId: fromProcess.id,
      packageCount: 5,
      fromPlace: 'Farm',
      toPlace: 'Market',
      departedAt: '2026-07-04T00:00:00.000Z',
    });
    expect((await row(tracePackageEntity, fromProcess.id))!.recalled).toBe(false);
    // A recall names its reason; its time is now unless given.
    const noReason = await update(traceHarvestEntity, {
      id: harvestId,
      recalledAt: '2026-07-05T00:00:00.000Z',
    });
    expect(noReason.status).toBe(400);
    fieldError(noReason, 'recallReason');
    const recalled = await update(traceHarvestEntity, {
      id: harvestId,
      recallReason: 'Residue found',
    });
    expect(recalled.status).toBe(200);
    expect(recalled.body.data.recalledAt).toBeTruthy();
    expect((await row(traceHarvestEntity, harvestId))!.recalled).toBe(true);
    expect((await row(traceProcessEntity, process.id))!.recalled).toBe(true);
    expect((await row(tracePackageEntity, fromProcess.id))!.recalled).toBe(true);
    expect((await row(tracePackageEntity, fromHarvest.id))!.recalled).toBe(true);
    expect((await row(traceShipmentEntity, shipment.id))!.recalled).toBe(true);
    expect((await row(tracePackageEntity, other.id))!.recalled).toBe(false);
    // Lifting the recall lifts it everywhere: nothing was copied.
    await update(traceHarvestEntity, { id: harvestId, recalledAt: null, recallReason: null });
    expect((await row(tracePackageEntity, fromProcess.id))!.recalled).toBe(false);
  });

  test('another tenant sees none of it and cannot draw on it', async () => {
    const harvestId = await newHarvest(100);
    const list = await call(server, 'GET', entityCalls(traceHarvestEntity).query, {
      token: acme,
      query: { pageSize: '100' },
    });
    expect(list.status).toBe(200);
    expect(
      (list.body.data.list as Array<{ id: string }>).some((one) => String(one.id) === harvestId),
    ).toBe(false);
    const foreign = await add(
      tracePackageEntity,
      { harvestId, packageCount: 1, netQuantity: 1, packedAt: '2026-07-03T00:00:00.000Z' },
      'en',
      acme,
    );
    expect(foreign.status).toBe(400);
    fieldError(foreign, 'harvestId');
    const shipment = await call(server, 'PUT', entityCalls(traceHarvestEntity).update, {
      token: acme,
      body: { id: harvestId, quantity: 1 },
    });
    expect(shipment.status).toBe(404);
    expect(Number((await row(traceHarvestEntity, harvestId))!.quantity)).toBe(100);
  });
});
