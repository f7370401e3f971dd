import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cardEntity,
  entityCalls,
  householdEntity,
  idNumberCheckChar,
  priceClassEntity,
} from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startConsole,
  waitForPath,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { freePort } from '@shuili/test-support/server-process';
import { api, signedIn, view } from './admin-console';
import { cardNoOn, placeCard, purseOf, startCardReader } from './card-reader-desk';

/**
 * The service desk in Chromium (issue 20 items 2 and 6) with the real card-reading service
 * (simulated reader: cards as files): the seeded cashier issues a registered card onto a blank
 * card, binds it to a household, recharges it through the reader (the card file then holds the
 * balance), refunds part, reports it lost and replaces it with a new card carrying the balance;
 * the readers page lists the desk's reader.
 */
const CASHIER: Credentials = { tenantCode: 'demo', username: 'cashier', password: 'cashier123' };

let rig: ConsoleRig;
let service: ChildProcess;
let cards: string;
let cashier: Page;

/** Waits for what the page or a card file shows (the reader and the server take their time). */
const poll = <T>(read: () => T | Promise<T>) =>
  expect.poll(read, { timeout: 20_000, interval: 200 });

/** A valid resident ID number of its own (unique per household). */
function idNumber(serial: number): string {
  const first17 = `11010519800101${String(serial % 1000).padStart(3, '0')}`;
  return `${first17}${idNumberCheckChar(first17)}`;
}

beforeAll(async () => {
  cards = fs.mkdtempSync(path.join(os.tmpdir(), 'shuili-e2e-desk-'));
  const readerPort = await freePort();
  rig = await startConsole({ config: { cardReaderPort: readerPort } });
  service = await startCardReader(cards, readerPort, rig.server.url);
  cashier = await signedIn(rig, CASHIER);
}, 180_000);

afterAll(async () => {
  service?.kill();
  await rig?.close();
  if (cards) fs.rmSync(cards, { recursive: true, force: true });
});

describe('the service desk with a card reader', () => {
  const stamp = Date.now() % 100000;
  const uid = `DE5C${String(stamp).padStart(4, '0')}`.slice(0, 8);
  const newUid = `DE5D${String(stamp).padStart(4, '0')}`.slice(0, 8);
  const householdName = `Desk household ${stamp}`;

  it('issues, binds, recharges, refunds, reports lost and replaces a card', async () => {
    // The household and two registered cards (the registration screen's rows).
    // The demo's crop classes (the household's prices).
    const classes = await api(cashier, 'GET', `${entityCalls(priceClassEntity).query}?pageSize=5`);
    const priceClassId = String(classes.body.data.list[0].id);
    const household = await api(cashier, 'POST', entityCalls(householdEntity).add, {
      householdName,
      idNumber: idNumber(stamp),
      village: 'Desk village',
      irrigatedArea: 12.5,
      priceClassId,
    });
    expect(household.status, JSON.stringify(household.body)).toBe(200);
    for (const cardNo of [uid, newUid]) {
      const added = await api(cashier, 'POST', entityCalls(cardEntity).add, {
        cardNo,
        cardType: 'user',
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }

    // Binding: a blank card on the reader; its identity written, then bound.
    placeCard(cards, uid);
    await cashier.goto('/skgg/binding');
    await waitForPath(cashier, '/skgg/binding');
    const binding = view(cashier, '/skgg/binding');
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'registered',
    );
    await binding.getByTestId('desk-issue').click();
    await poll(() => cardNoOn(cards, uid)).toBe(uid);
    await binding.getByTestId('desk-bind-household').locator('.ant-select').click();
    await cashier.keyboard.type(householdName);
    await cashier
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: householdName })
      .click();
    await binding.getByTestId('desk-bind').click();
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'bound',
    );
    await poll(() => binding.getByTestId('desk-household').textContent()).toContain(householdName);

    // Recharge ¥50 in cash: posted, then the card written with the new balance.
    await cashier.goto('/skgg/recharge');
    const recharge = view(cashier, '/skgg/recharge');
    await poll(() => recharge.getByTestId('desk-household').textContent()).toContain(householdName);
    await recharge.getByTestId('desk-amount').fill('50');
    await recharge.getByTestId('desk-recharge-submit').click();
    await recharge.getByTestId('desk-write-written').waitFor();
    expect(purseOf(cards, uid)).toEqual({ balanceFen: 5000, sequence: 1 });
    await recharge.getByTestId('desk-receipt').waitFor();
    await poll(() => recharge.getByTestId('desk-available').getAttribute('data-fen')).toBe('5000');

    // Refund ¥12.50 of it: the card holds ¥37.50.
    await cashier.goto('/skgg/refund');
    const refund = view(cashier, '/skgg/refund');
    await poll(() => refund.getByTestId('desk-refundable').textContent()).toContain('50.00');
    await refund.getByTestId('desk-amount').fill('12.5');
    await refund.getByTestId('desk-refund-submit').click();
    await refund.getByTestId('desk-write-written').waitFor();
    expect(purseOf(cards, uid)).toEqual({ balanceFen: 3750, sequence: 2 });

    // Reported lost, then replaced by a new blank card that gets the household's ¥37.50.
    await cashier.goto('/skgg/binding');
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'bound',
    );
    await binding.getByTestId('desk-report-lost').click();
    await cashier.locator('.ant-popconfirm:visible .ant-btn-primary').click();
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'lost',
    );
    await binding.getByTestId('desk-replace').click();
    placeCard(cards, newUid);
    await poll(() => binding.getByTestId('desk-new-card-no').inputValue()).toBe(newUid);
    await binding.getByTestId('desk-replace-submit').click();
    await binding.getByTestId('desk-write-written').waitFor();
    expect(cardNoOn(cards, newUid)).toBe(newUid);
    expect(purseOf(cards, newUid)).toEqual({ balanceFen: 3750, sequence: 1 });
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'bound',
    );

    // The lost card is refused from now on.
    placeCard(cards, uid);
    await poll(() => binding.getByTestId('desk-card-state').getAttribute('data-state')).toBe(
      'replaced',
    );
  }, 240_000);

  it("lists the desk's reader and shows this desk's reader service", async () => {
    await cashier.goto('/skgg/readDeviceList');
    const page = view(cashier, '/skgg/readDeviceList');
    await page.getByTestId('card-reader-status').first().waitFor();
    await poll(() => page.getByTestId('desk-readers').textContent()).toContain('cashier');
  });
});
