import {
  AREAS,
  cardEntity,
  ENTITIES,
  entityCalls,
  householdEntity,
  idNumberCheckChar,
  priceClassEntity,
  priceTierEntity,
  WATER_RIGHT_CALLS,
  waterCoefficientEntity,
  waterRightEntity,
  wellBillingEntity,
} from '@shuili/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, type CallResult } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { irrigationDevice } from '../../monitor/irrigation/irrigation-test-kit';

/*
 * The billing set-up entities' own rules over HTTP (the generic ones are entity-contract.test's):
 * the ID number checked by its check digit and never answered in full (rows, exports), card
 * registration's state and UID, the tier staircase, wells' settings and coefficients, water
 * rights' default quota and the year's distribution, the cashier's reach, and the demo's rows.
 */

const HOUSEHOLDS = entityCalls(householdEntity);
const CARDS = entityCalls(cardEntity);
const CLASSES = entityCalls(priceClassEntity);
const TIERS = entityCalls(priceTierEntity);
const WELLS = entityCalls(wellBillingEntity);
const COEFFICIENTS = entityCalls(waterCoefficientEntity);
const RIGHTS = entityCalls(waterRightEntity);

/** A valid ID number born on a day, with a sequence. */
function idNumber(birth: string, sequence: number): string {
  const first17 = `370102${birth}${String(sequence).padStart(3, '0')}`;
  return `${first17}${idNumberCheckChar(first17)}`;
}

/** The one field a 400/409 names, with its translated message. */
function fieldError(result: CallResult, field: string): string {
  const errors = (result.body?.errors ?? []) as Array<{ field: string; message: string }>;
  const found = errors.find((error) => error.field === field);
  expect(found, `${result.status} ${JSON.stringify(result.body)}`).toBeDefined();
  return found!.message;
}

describe.each(BACKENDS)('billing set-up on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let classId: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const added = await call(server, 'POST', CLASSES.add, {
      token,
      body: { className: 'Test grain', basePrice: 3, quotaPerMu: 300 },
    });
    expect(added.status).toBe(200);
    classId = String(added.body.data.id);
  });
  afterAll(async () => server?.close());

  const addHousehold = (body: Record<string, unknown>, lang?: string) =>
    call(server, 'POST', HOUSEHOLDS.add, {
      token,
      lang,
      body: {
        householdName: 'Test household',
        village: 'Testing village',
        irrigatedArea: 10,
        priceClassId: classId,
        ...body,
      },
    });

  test('an ID number is checked by its check digit and answered only masked, in lists and exports', async () => {
    const full = idNumber('19800101', 123);
    const bad = `${full.slice(0, 17)}${full[17] === '0' ? '1' : '0'}`;
    const refused = await addHousehold({ idNumber: bad }, 'zh');
    expect(refused.status).toBe(400);
    expect(fieldError(refused, 'idNumber')).toContain('身份证号');
    expect((await addHousehold({ idNumber: '37010219800230123X' })).status).toBe(400);

    const added = await addHousehold({ householdName: 'Masked Wang', idNumber: full });
    expect(added.status).toBe(200);
    const id = String(added.body.data.id);
    const masked = `${full.slice(0, 6)}********${full.slice(14)}`;
    const list = await call(server, 'GET', HOUSEHOLDS.query, {
      token,
      query: { householdName: 'Masked Wang' },
    });
    expect(list.status).toBe(200);
    const row = list.body.data.list[0];
    expect(row.idNumberMasked).toBe(masked);
    expect(JSON.stringify(list.body)).not.toContain(full);
    expect(JSON.stringify(added.body)).not.toContain(full);

    // The desk finds the household by the full number (exact match), never by a part of it.
    const byNumber = await call(server, 'GET', HOUSEHOLDS.query, {
      token,
      query: { idNumber: full },
    });
    expect(byNumber.body.data.list.map((r: { id: string }) => r.id)).toEqual([id]);
    const byPart = await call(server, 'GET', HOUSEHOLDS.query, {
      token,
      query: { idNumber: full.slice(0, 10) },
    });
    expect(byPart.body.data.total).toBe(0);

    // Exports: the masked number, never the full one.
    const csv = await call(server, 'POST', HOUSEHOLDS.exportCsv, {
      token,
      query: { householdName: 'Masked Wang' },
    });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain(masked);
    expect(String(csv.body)).not.toContain(full);
    const xlsx = await fetch(
      new URL(`${HOUSEHOLDS.exportXlsx}?householdName=Masked%20Wang`, server.url),
      { method: 'POST', headers: { authorization: `Bearer ${token}` } },
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((sheetRow) =>
      sheetRow.eachCell((cell) => void cells.push(String(cell.value))),
    );
    expect(cells).toContain(masked);
    expect(cells.join(' ')).not.toContain(full);

    // One household per ID number; an edit without the number keeps it.
    const again = await addHousehold({ idNumber: full.toLowerCase() });
    expect(again.status).toBe(409);
    fieldError(again, 'idNumber');
    const renamed = await call(server, 'PUT', HOUSEHOLDS.update, {
      token,
      body: { id, householdName: 'Masked Wang Jr' },
    });
    expect(renamed.status).toBe(200);
    const still = await call(server, 'GET', HOUSEHOLDS.query, { token, query: { idNumber: full } });
    expect(still.body.data.list[0].householdName).toBe('Masked Wang Jr');
  });

  test('a card is registered with its UID upper-cased; its state follows its household and is never written', async () => {
    const household = await addHousehold({ idNumber: idNumber('19750505', 7) });
    const householdId = String(household.body.data.id);
    const bound = await call(server, 'POST', CARDS.add, {
      token,
      body: { cardNo: 'abcdef12', cardType: 'user', householdId },
    });
    expect(bound.status).toBe(200);
    const rows = await call(server, 'GET', CARDS.query, { token, query: { cardNo: 'ABCDEF12' } });
    expect(rows.body.data.list[0]).toMatchObject({ cardNo: 'ABCDEF12', cardState: 'bound' });
    expect(rows.body.data.list[0].issuedAt).toBeTruthy();
    const loose = await call(server, 'POST', CARDS.add, {
      token,
      body: { cardNo: '0011AABB', cardType: 'setting' },
    });
    expect(loose.status).toBe(200);
    const looseRow = await call(server, 'GET', CARDS.query, {
      token,
      query: { cardNo: '0011AABB' },
    });
    expect(looseRow.body.data.list[0].cardState).toBe('registered');

    // Taken UIDs (whatever their case), bad UIDs, a household on a setting card, a state sent.
    expect(
      (await call(server, 'POST', CARDS.add, { token, body: { cardNo: 'ABCDEF12' } })).status,
    ).toBe(409);
    fieldError(
      await call(server, 'POST', CARDS.add, { token, body: { cardNo: 'XYZ12345' } }),
      'cardNo',
    );
    const settingWithHousehold = await call(server, 'POST', CARDS.add, {
      token,
      body: { cardNo: '0011AACC', cardType: 'setting', householdId },
    });
    expect(settingWithHousehold.status).toBe(400);
    fieldError(settingWithHousehold, 'householdId');
    const stateSent = await call(server, 'POST', CARDS.add, {
      token,
      body: { cardNo: '0011AADD', cardState: 'lost' },
    });
    expect(stateSent.status).toBe(400);
  });

  test('tiers of a class stay a staircase: one per bound, one unbounded, multipliers never decreasing', async () => {
    const priceClass = await call(server, 'POST', CLASSES.add, {
      token,
      body: { className: 'Stairs', basePrice: 5, quotaPerMu: 350 },
    });
    const priceClassId = String(priceClass.body.data.id);
    const tier = (overQuotaPercent: number | null, multiplier: number) =>
      call(server, 'POST', TIERS.add, {
        token,
        lang: 'en',
        body: { priceClassId, overQuotaPercent, multiplier },
      });
    expect((await tier(20, 1.2)).status).toBe(200);
    expect((await tier(50, 1.5)).status).toBe(200);
    expect((await tier(null, 2)).status).toBe(200);
    expect(fieldError(await tier(30, 1.1), 'multiplier')).toContain('1.2');
    expect(fieldError(await tier(10, 1.3), 'multiplier')).toContain('1.2');
    fieldError(await tier(20, 1.2), 'overQuotaPercent');
    fieldError(await tier(null, 3), 'overQuotaPercent');
    expect((await tier(35, 1.3)).status).toBe(200);
    // A tier raised past the one above it is refused on update too.
    const rows = await call(server, 'GET', TIERS.query, { token, query: { priceClassId } });
    const first = rows.body.data.list.find(
      (r: { overQuotaPercent: number }) => r.overQuotaPercent === 20,
    );
    const raised = await call(server, 'PUT', TIERS.update, {
      token,
      body: { id: first.id, multiplier: 1.4 },
    });
    fieldError(raised, 'multiplier');
  });

  test('a well setting and a coefficient belong to a card controller; a coefficient agrees with its calibration and its date is its own', async () => {
    const well = await irrigationDevice(server.db, 'card_controller');
    const gauge = await irrigationDevice(server.db, 'bayonet_station');
    fieldError(
      await call(server, 'POST', WELLS.add, {
        token,
        body: { deviceId: gauge.deviceId, billingMode: 'm3' },
      }),
      'deviceId',
    );
    fieldError(
      await call(server, 'POST', WELLS.add, {
        token,
        body: { deviceId: well.deviceId, billingMode: 'kwh' },
      }),
      'pricePerKwh',
    );
    expect(
      (
        await call(server, 'POST', WELLS.add, {
          token,
          body: { deviceId: well.deviceId, billingMode: 'kwh', pricePerKwh: 52.5 },
        })
      ).status,
    ).toBe(200);

    const coefficient = (body: Record<string, unknown>) =>
      call(server, 'POST', COEFFICIENTS.add, {
        token,
        body: { deviceId: well.deviceId, ...body },
      });
    expect(
      (
        await coefficient({
          coefficient: 2.5,
          validFrom: '2025-03-01T00:00:00Z',
          measuredVolume: 250,
          measuredEnergy: 100,
        })
      ).status,
    ).toBe(200);
    const mismatch = await coefficient({
      coefficient: 3,
      validFrom: '2026-03-01T00:00:00Z',
      measuredVolume: 250,
      measuredEnergy: 100,
    });
    expect(fieldError(mismatch, 'coefficient')).toContain('2.5000');
    const sameDay = await coefficient({ coefficient: 2.6, validFrom: '2025-03-01T00:00:00Z' });
    expect(sameDay.status).toBe(409);
    fieldError(sameDay, 'validFrom');
    expect(
      (await coefficient({ coefficient: 2.6, validFrom: '2026-03-01T00:00:00Z' })).status,
    ).toBe(200);
    const history = await call(server, 'GET', COEFFICIENTS.query, {
      token,
      query: { deviceId: well.deviceId },
    });
    expect(history.body.data.list.map((r: { coefficient: number }) => r.coefficient)).toEqual([
      2.6, 2.5,
    ]);
  });

  test('a water right defaults to area × crop quota; distributing a year makes each missing one once', async () => {
    const household = await addHousehold({
      idNumber: idNumber('19690909', 31),
      irrigatedArea: 12.5,
    });
    const householdId = String(household.body.data.id);
    const right = await call(server, 'POST', RIGHTS.add, {
      token,
      body: { householdId, year: 2031 },
    });
    expect(right.status).toBe(200);
    const rows = await call(server, 'GET', RIGHTS.query, {
      token,
      query: { householdId, year: '2031' },
    });
    expect(rows.body.data.list[0]).toMatchObject({
      quotaM3: 3750,
      usedM3: 0,
      remainingM3: 3750,
      village: 'Testing village',
    });

    const first = await call(server, 'POST', WATER_RIGHT_CALLS.distributeYear, {
      token,
      body: { year: 2031 },
    });
    expect(first.status).toBe(200);
    expect(first.body.data.created).toBeGreaterThan(0);
    // The household given its right by hand keeps it as it was.
    const kept = await call(server, 'GET', RIGHTS.query, {
      token,
      query: { householdId, year: '2031' },
    });
    expect(kept.body.data.total).toBe(1);
    const second = await call(server, 'POST', WATER_RIGHT_CALLS.distributeYear, {
      token,
      body: { year: 2031 },
    });
    expect(second.body.data).toEqual({ created: 0, total: first.body.data.total });
    expect(first.body.data.total).toBe(first.body.data.created + 1);
    const badYear = await call(server, 'POST', WATER_RIGHT_CALLS.distributeYear, {
      token,
      lang: 'zh',
      body: { year: 1999 },
    });
    expect(badYear.status).toBe(400);
    expect(fieldError(badYear, 'year')).toContain('年度');
  });

  test('the cashier lists every entity screen of its menu', async () => {
    const cashier = (await signIn(server, 'demo', 'cashier', 'cashier123')).access_token;
    const skgg = AREAS.find((area) => area.code === 'skgg')!;
    const desk = (skgg.pages ?? []).filter((page) => page.cashier).map((page) => page.segment);
    const screens = ENTITIES.filter((entity) => entity.menuCode && desk.includes(entity.menuCode));
    expect(screens.length).toBeGreaterThan(4);
    for (const entity of screens) {
      const answer = await call(server, 'GET', entityCalls(entity).query, { token: cashier });
      expect(answer.status, entity.name).toBe(200);
    }
  });

  test('the demo cashier keeps households and cards but may not change prices', async () => {
    const cashier = (await signIn(server, 'demo', 'cashier', 'cashier123')).access_token;
    expect((await call(server, 'GET', HOUSEHOLDS.query, { token: cashier })).status).toBe(200);
    expect((await call(server, 'GET', CLASSES.query, { token: cashier })).status).toBe(200);
    const price = await call(server, 'POST', CLASSES.add, {
      token: cashier,
      body: { className: 'Cashier class', basePrice: 1, quotaPerMu: 1 },
    });
    expect(price.status).toBe(403);
    const card = await call(server, 'POST', CARDS.add, {
      token: cashier,
      body: { cardNo: '77665544', cardType: 'test' },
    });
    expect(card.status).toBe(200);
  });

  test('the demo shows households in four villages with masked numbers, a replaced card, coefficients and this year’s rights', async () => {
    const households = await call(server, 'GET', HOUSEHOLDS.query, {
      token,
      query: { pageSize: '100' },
    });
    const demo = households.body.data.list.filter((r: { idNumberMasked: string }) =>
      r.idNumberMasked.startsWith('370112'),
    );
    expect(demo.length).toBe(12);
    expect(new Set(demo.map((r: { village: string }) => r.village)).size).toBe(4);
    for (const row of demo) expect(row.idNumberMasked).toMatch(/^370112\*{8}\d{3}[\dX]$/);
    const cards = await call(server, 'GET', CARDS.query, { token, query: { pageSize: '100' } });
    const replaced = cards.body.data.list.find(
      (r: { cardState: string }) => r.cardState === 'replaced',
    );
    expect(replaced).toBeDefined();
    expect(
      cards.body.data.list.some(
        (r: { replacesCardId: string }) => r.replacesCardId === replaced.id,
      ),
    ).toBe(true);
    const coefficients = await call(server, 'GET', COEFFICIENTS.query, {
      token,
      query: { pageSize: '100' },
    });
    expect(coefficients.body.data.total).toBeGreaterThanOrEqual(6);
    const rights = await call(server, 'GET', RIGHTS.query, {
      token,
      query: { year: String(new Date().getFullYear()), pageSize: '100' },
    });
    expect(rights.body.data.total).toBeGreaterThanOrEqual(12);
  });
});
