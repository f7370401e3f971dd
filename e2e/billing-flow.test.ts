import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { CardControllerModel, createEnvironment, createRandom, VirtualDevice } from '@shuili/sim';
import {
  cardEntity,
  chargeSession,
  entityCalls,
  householdEntity,
  idNumberCheckChar,
} from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  startConsole,
  waitForPath,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { freePort } from '@shuili/test-support/server-process';
import {
  brokerUrlOf,
  insertPriceClass,
  seededControllers,
  setWellBilling,
  until,
  type SeededController,
} from '@shuili/server/modules/billing/sessions/card-session-test-kit';
import { api, signedIn, view } from './admin-console';
import { cardNoOn, placeCard, purseOf, startCardReader } from './card-reader-desk';

/**
 * Issue 20's whole story in Chromium, against the real server, the card-reading service's
 * simulated reader and the simulator's card controller over MQTT: the seeded cashier issues a
 * card, binds it to a household and recharges it through the reader (the card file holds the
 * balance); a farmer swipes it at a well (hold), pumps for an hour and takes it off (the
 * controller's record settles the session at the household's tiered price); the cashier refunds
 * the rest (the card written with 0); the farmer's next swipe is refused with a low-balance
 * alarm; the reconciliation shows the household at zero difference. Then every /skgg route the
 * other billing browser tests leave unopened shows this story's rows: transactions, consumption,
 * controller records, the controllers' status and list, and their alarms.
 */

const CASHIER: Credentials = { tenantCode: 'demo', username: 'cashier', password: 'cashier123' };
const stamp = Date.now() % 100_000;
const uid = `F10${String(stamp).padStart(5, '0')}`;
const householdName = `Flow household ${stamp}`;
const village = `Flow village ${stamp}`;
// A quota of 5 mu × 2 m³: an hour at the well's 40 m³/h runs through both tiers above it.
const PRICE = {
  name: `Flow price ${stamp}`,
  basePrice: 50,
  quotaPerMu: 2,
  tiers: [
    { overQuotaPercent: 20, multiplier: 1.2 },
    { overQuotaPercent: null, multiplier: 1.5 },
  ],
};
const AREA_MU = 5;
const RECHARGE_FEN = 10_000;

let rig: ConsoleRig;
let reader: ChildProcess;
let cards: string;
let cashier: Page;
let admin: Page;
let well: SeededController;
let wellName: string;
let tenantId: string;
let priceClassId: string;
let controller: VirtualDevice;
let physics: CardControllerModel;
/** The controller's clock, moved on to end a session without waiting an hour. */
const clock = { aheadMs: 0 };
const now = () => Date.now() + clock.aheadMs;

/** Waits for what the page, a card file or the database shows (each takes its time). */
const poll = <T>(read: () => T | Promise<T>) =>
  expect.poll(read, { timeout: 20_000, interval: 200 });

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** The table rows of a list screen holding `text`. */
const rowsOf = (page: Page, path: string, text: string) =>
  view(page, path).getByTestId('resource-table').locator('tbody tr.ant-table-row', {
    hasText: text,
  });

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForPath(page, path);
  return view(page, path);
}

interface SessionRow {
  id: string;
  state: string;
  amount_fen: string | null;
  controller_amount_fen: string | null;
  volume_m3: string | null;
  tier_parts: unknown[] | null;
  end_reason: string | null;
}

const sessions = () =>
  rig.server.db.system(async (sql) => {
    const { rows } = await sql.query<SessionRow>(
      `SELECT id::text, state, amount_fen, controller_amount_fen, volume_m3, tier_parts, end_reason
         FROM billing_session WHERE card_no = $1 ORDER BY id`,
      [uid],
    );
    return rows;
  });

beforeAll(async () => {
  cards = fs.mkdtempSync(`${os.tmpdir()}/shuili-e2e-flow-`);
  const readerPort = await freePort();
  rig = await startConsole({ config: { cardReaderPort: readerPort } });
  reader = await startCardReader(cards, readerPort, rig.server.url);
  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
  );
  tenantId = rows[0]!.id;
  // The administrator's set-up (the set-up screens' own test draws them): a tiered price, and
  // the well charging by the meter's m³.
  well = (await seededControllers(rig.server))[0]!;
  await rig.server.db.tenant(tenantId, async (sql) => {
    priceClassId = await insertPriceClass(sql, tenantId, PRICE);
    await setWellBilling(sql, tenantId, well.deviceId, 'm3');
    const device = await sql.query<{ device_name: string }>(
      `SELECT device_name FROM iot_device WHERE id = $1`,
      [well.deviceId],
    );
    wellName = device.rows[0]!.device_name;
  });
  cashier = await signedIn(rig, CASHIER);
}, 180_000);

afterAll(async () => {
  await controller?.stop();
  reader?.kill();
  await rig?.close();
  if (cards) fs.rmSync(cards, { recursive: true, force: true });
});

describe('a card from issue to refund', () => {
  let amountFen = 0;

  it('the cashier issues a card, binds it and recharges it through the reader', async () => {
    const first17 = `11010519900101${String(stamp % 1000).padStart(3, '0')}`;
    const household = await api(cashier, 'POST', entityCalls(householdEntity).add, {
      householdName,
      idNumber: `${first17}${idNumberCheckChar(first17)}`,
      village,
      irrigatedArea: AREA_MU,
      priceClassId,
    });
    expect(household.status, JSON.stringify(household.body)).toBe(200);
    const card = await api(cashier, 'POST', entityCalls(cardEntity).add, {
      cardNo: uid,
      cardType: 'user',
    });
    expect(card.status, JSON.stringify(card.body)).toBe(200);

    placeCard(cards, uid);
    const binding = await open(cashier, '/skgg/binding');
    const state = () => binding.getByTestId('desk-card-state').getAttribute('data-state');
    await poll(state).toBe('registered');
    await binding.getByTestId('desk-issue').click();
    await poll(() => cardNoOn(cards, uid)).toBe(uid);
    await binding.getByTestId('desk-bind-household').locator('.ant-select').click();
    await cashier.keyboard.type(householdName);
    await cashier
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: householdName })
      .click();
    await binding.getByTestId('desk-bind').click();
    await poll(state).toBe('bound');

    const recharge = await open(cashier, '/skgg/recharge');
    await poll(() => recharge.getByTestId('desk-household').textContent()).toContain(householdName);
    await recharge.getByTestId('desk-amount').fill(yuan(RECHARGE_FEN));
    await recharge.getByTestId('desk-recharge-submit').click();
    await recharge.getByTestId('desk-write-written').waitFor();
    expect(purseOf(cards, uid)).toEqual({ balanceFen: RECHARGE_FEN, sequence: 1 });
    await poll(() => recharge.getByTestId('desk-available').getAttribute('data-fen')).toBe(
      String(RECHARGE_FEN),
    );
  });

  it('a simulated controller runs a session on it, settled at the tiered price', async () => {
    const random = createRandom(20);
    // The farmer keeps the card on for exactly an hour.
    physics = new CardControllerModel(random.fork(), now(), {
      swipesPerDay: 0,
      sessionHours: [1, 1],
    });
    controller = new VirtualDevice({
      brokerUrl: brokerUrlOf(rig.server),
      identity: well.identity,
      secret: well.secret,
      kind: 'card_controller',
      thingModel: well.thingModel,
      // Readings when the test says (publishTelemetry), not on a timer of their own.
      intervalMs: 3_600_000,
      random,
      env: createEnvironment({ random: random.fork(), start: now(), rain: [] }),
      now,
      offlineProbability: 0,
      physics,
    });
    await controller.start();
    physics.swipe(uid);
    await controller.sendEvents();
    // The server held the household's balance and authorized the pump.
    await until(
      'the pump runs on the server’s credit',
      async () => physics.values(),
      (values) => Boolean(values['pumpRunning']),
    );
    expect(await sessions()).toMatchObject([{ state: 'open' }]);
    // An hour on, the card is taken off and the controller sends its record.
    clock.aheadMs += 3_600_000 + 60_000;
    await controller.publishTelemetry();
    const [settled] = await until('the session settled', sessions, (rows) =>
      rows.some((row) => row.state === 'settled'),
    );
    expect(settled).toMatchObject({ end_reason: 'cardRemoved' });
    const expected = chargeSession({
      mode: 'm3',
      startedAt: new Date(),
      endedAt: new Date(),
      volumeM3: Number(settled!.volume_m3),
      usedBeforeM3: 0,
      quotaM3: AREA_MU * PRICE.quotaPerMu,
      basePrice: PRICE.basePrice,
      tiers: PRICE.tiers,
    });
    // Within the quota, up to 20 % over, and above: three prices in one session.
    expect(expected.parts).toHaveLength(3);
    expect(settled!.tier_parts).toHaveLength(3);
    amountFen = Number(settled!.amount_fen);
    expect(amountFen).toBe(expected.amountFen);
  }, 90_000);

  it('the cashier refunds the rest: the household has 0, and so has the card', async () => {
    const rest = RECHARGE_FEN - amountFen;
    const refund = await open(cashier, '/skgg/refund');
    await poll(() => refund.getByTestId('desk-refundable').textContent()).toContain(yuan(rest));
    await refund.getByTestId('desk-amount').fill(yuan(rest));
    await refund.getByTestId('desk-refund-submit').click();
    await refund.getByTestId('desk-write-written').waitFor();
    expect(purseOf(cards, uid)).toEqual({ balanceFen: 0, sequence: 2 });
    await poll(() => refund.getByTestId('desk-available').getAttribute('data-fen')).toBe('0');
  });

  it('the next swipe is refused for want of balance, with an alarm', async () => {
    physics.swipe(uid);
    await controller.sendEvents();
    await until(
      'the low-balance alarm',
      () =>
        rig.server.db.system(async (sql) => {
          const { rows } = await sql.query(
            `SELECT 1 FROM iot_alarm_record a JOIN iot_alarm_rule r ON r.id = a.rule_id
              WHERE a.device_id = $1 AND r.rule_name = 'Low card balance'`,
            [well.deviceId],
          );
          return rows.length;
        }),
      (count) => count > 0,
    );
    // Nothing held: the one session stays the only one.
    expect(await sessions()).toHaveLength(1);
  });

  it('the reconciliation shows the household at zero difference', async () => {
    // The administrator comes in once the desk's work is done.
    admin = await signedIn(rig, DEMO_ADMIN);
    const revenue = await open(admin, '/skgg/revenue');
    await revenue.getByRole('tab', { name: 'Reconciliation' }).click();
    const search = revenue.getByTestId('reconciliation-village').locator('input');
    await search.fill(village);
    await search.press('Enter');
    const summary = revenue.getByTestId('reconciliation-summary');
    await poll(() => summary.textContent()).toMatch(/Card users\s*1(?!\d)/);
    await revenue.getByTestId('reconciliation-zero').waitFor();
    const row = revenue.getByTestId('reconciliation-table').locator('tr', { hasText: uid });
    await poll(() => row.textContent()).toContain(householdName);
  });

  describe('the story on the other screens', () => {
    it('/skgg/transaction: the recharge, hold, settlement and refund', async () => {
      await open(admin, '/skgg/transaction');
      const rows = rowsOf(admin, '/skgg/transaction', householdName);
      // By the type's own cell ("Hold" is in "household" too).
      const ofKind = (kind: string) =>
        rows.filter({ has: admin.locator('td', { hasText: new RegExp(`^${kind}$`) }) });
      await poll(() => rows.count()).toBe(4);
      await poll(() => ofKind('Recharge').textContent()).toContain(yuan(RECHARGE_FEN));
      await poll(() => ofKind('Hold').count()).toBe(1);
      await poll(() => ofKind('Settlement').textContent()).toContain(yuan(amountFen));
      await poll(() => ofKind('Refund').textContent()).toContain(yuan(RECHARGE_FEN - amountFen));
    });

    it('/skgg/consumption: the settled session with its amount', async () => {
      await open(admin, '/skgg/consumption');
      const rows = rowsOf(admin, '/skgg/consumption', uid);
      await rows.first().waitFor();
      await poll(() => rows.count()).toBe(1);
      const text = await rows.textContent();
      expect(text).toContain('Settled');
      expect(text).toContain(yuan(amountFen));
      expect(text).toContain(householdName);
      expect(text).toContain('Card removed');
    });

    it('/skgg/record: the controller’s record, posted', async () => {
      const [session] = await sessions();
      await open(admin, '/skgg/record');
      const rows = rowsOf(admin, '/skgg/record', uid);
      await rows.first().waitFor();
      await poll(() => rows.count()).toBe(1);
      const text = await rows.textContent();
      expect(text).toContain('Posted');
      expect(text).toContain(yuan(Number(session!.controller_amount_fen)));
    });

    it('/skgg/deviceStatus and /skgg/deviceManagement: the well’s controller', async () => {
      const status = await open(admin, '/skgg/deviceStatus');
      await status
        .locator(`[data-testid="area-device-card"][data-device-no="${well.deviceNo}"]`)
        .waitFor();
      const list = await open(admin, '/skgg/deviceManagement');
      await list
        .locator(`[data-testid="area-device-row"][data-device-no="${well.deviceNo}"]`)
        .waitFor();
    });

    it('/skgg/alarmRecord: the refused swipe’s low-balance alarm', async () => {
      await open(admin, '/skgg/alarmRecord');
      await rowsOf(admin, '/skgg/alarmRecord', wellName)
        .filter({ hasText: 'Low card balance' })
        .first()
        .waitFor();
    });
  });
});
