import { cardEntity, entityCalls, householdEntity, idNumberCheckChar } from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseOption,
  DEMO_ADMIN,
  startConsole,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { api, form, signedIn, view } from './admin-console';

/**
 * Card-swipe billing's set-up screens in Chromium (issue 20), on the demo's seeded households,
 * cards, prices and water rights: the administrator opens the households (ID numbers masked),
 * card registration (states), prices (classes, the tier staircase with its worked example,
 * wells' modes, the coefficients' history) and water rights (used and remaining); the demo
 * cashier adds a household (a wrong check digit refused in the form) and issues it a card.
 */

const CARD_USER = '/skgg/cardUser';
const REGISTRATION = '/skgg/registrationList';
const WATER_SET = '/skgg/waterSet';
const DISTRIBUTION = '/skgg/distribution';
const CASHIER: Credentials = { tenantCode: 'demo', username: 'cashier', password: 'cashier123' };

/** A household and card of this run only. */
const RUN = Date.now() % 100_000;
const NAME = `测试户${RUN}`;
const FIRST17 = `37011219880808${String(RUN % 1000).padStart(3, '0')}`;
const ID_NUMBER = `${FIRST17}${idNumberCheckChar(FIRST17)}`;
const WRONG_ID = `${FIRST17}${ID_NUMBER.endsWith('1') ? '2' : '1'}`;
const CARD_NO = `E2E${String(RUN).padStart(5, '0')}`.replace(/[^0-9A-F]/g, 'E');

let rig: ConsoleRig;
let admin: Page;
let cashier: Page;

beforeAll(async () => {
  rig = await startConsole();
  [admin, cashier] = await Promise.all([signedIn(rig, DEMO_ADMIN), signedIn(rig, CASHIER)]);
});

afterAll(async () => {
  await rig?.close();
});

describe('the administrator opens the set-up screens', () => {
  it('lists households with masked ID numbers and cards with their state', async () => {
    await admin.goto(CARD_USER);
    const households = view(admin, CARD_USER).getByTestId('resource-table');
    // The newest first: the last of the demo's households.
    await households.getByText('马红').waitFor();
    await expect.poll(() => households.textContent()).toMatch(/370112\*{8}\d{3}[\dX]/);

    await admin.goto(REGISTRATION);
    const cards = view(admin, REGISTRATION).getByTestId('resource-table');
    await cards.locator('[data-testid="card-state"][data-state="bound"]').first().waitFor();
  });

  it('shows the prices: classes, the staircase with its example, wells and the coefficients’ history', async () => {
    await admin.goto(WATER_SET);
    const page = view(admin, WATER_SET);
    await page.getByTestId('resource-table').getByText('粮食作物').waitFor();
    await page.getByRole('tab', { name: 'Tiered prices' }).click();
    const stairs = page.getByTestId('price-stairs');
    // Grain at 3 fen/m³: quota 100 m³, use 110 m³ → 100 × 3 + 10 × 3.6 = 336 fen.
    await stairs.getByText('→ 3.36 yuan').first().waitFor();
    await page.getByRole('tab', { name: 'Well billing' }).click();
    await page
      .getByTestId('resource-table')
      .getByText('机井刷卡控制器', { exact: false })
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Electricity-to-water coefficients' }).click();
    const coefficients = page.getByTestId('resource-table');
    await coefficients.getByText('机井刷卡控制器', { exact: false }).first().waitFor();
    expect(await coefficients.locator('tr.ant-table-row').count()).toBeGreaterThanOrEqual(6);
  });

  it('shows this year’s water rights with used and remaining', async () => {
    await admin.goto(DISTRIBUTION);
    const rights = view(admin, DISTRIBUTION).getByTestId('resource-table');
    await rights.locator('tr.ant-table-row').first().waitFor();
    await expect.poll(() => rights.textContent()).toMatch(/东庄村|西河村|南屯村|北岗村/);
    await view(admin, DISTRIBUTION).getByTestId('distribute-year').waitFor();
  });
});

describe('the cashier at the desk', () => {
  it('adds a household (its ID number checked) and issues it a card', async () => {
    await cashier.goto(CARD_USER);
    const page = view(cashier, CARD_USER);
    await page.getByTestId('resource-table').getByText('马红').waitFor();
    await page.getByTestId('resource-add').click();
    const dialog = form(cashier);
    await dialog.locator('#form-CardUser_householdName').fill(NAME);
    await dialog.locator('#form-CardUser_idNumber').fill(WRONG_ID);
    await dialog.locator('#form-CardUser_village').fill('东庄村');
    await dialog.getByText('not a valid resident ID number').waitFor();
    await dialog.locator('#form-CardUser_idNumber').fill(ID_NUMBER);
    await dialog.locator('#form-CardUser_irrigatedArea').fill('8.5');
    await chooseOption(
      cashier,
      dialog.locator('.ant-select', { has: cashier.locator('#form-CardUser_priceClassId') }),
      '粮食作物',
      { search: '粮食' },
    );
    await dialog.getByTestId('resource-form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const masked = `${ID_NUMBER.slice(0, 6)}********${ID_NUMBER.slice(14)}`;
    await page.locator('tr', { hasText: NAME }).getByText(masked).waitFor();
    const { body } = await api(
      cashier,
      'GET',
      `${entityCalls(householdEntity).query}?householdName=${encodeURIComponent(NAME)}`,
    );
    expect(JSON.stringify(body)).not.toContain(ID_NUMBER);

    await cashier.goto(REGISTRATION);
    const cards = view(cashier, REGISTRATION);
    await cards.getByTestId('resource-table').waitFor();
    await cards.getByTestId('resource-add').click();
    const cardForm = form(cashier);
    await cardForm.locator('#form-Card_cardNo').fill(CARD_NO.toLowerCase());
    // The household is searched on the server as the cashier types.
    await chooseOption(
      cashier,
      cardForm.locator('.ant-select', { has: cashier.locator('#form-Card_householdId') }),
      NAME,
      { search: NAME },
    );
    await cardForm.getByTestId('resource-form-submit').click();
    await cardForm.waitFor({ state: 'hidden' });
    const row = cards.locator('tr', { hasText: CARD_NO });
    await row.locator('[data-testid="card-state"][data-state="bound"]').waitFor();
    const issued = await api(cashier, 'GET', `${entityCalls(cardEntity).query}?cardNo=${CARD_NO}`);
    expect(issued.body.data.list[0]).toMatchObject({ cardNo: CARD_NO, householdIdLabel: NAME });
  });
});
