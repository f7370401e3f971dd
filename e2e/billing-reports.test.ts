import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  startConsole,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { signedIn, view } from './admin-console';

/**
 * The money reports in Chromium (issue 20), on the demo's seeded ledger: eight cash recharges at
 * the desk (东庄村 650.00 yuan, 西河村 400.00, 南屯村 200.00, 北岗村 none; 1250.00 in all), no card
 * written yet. The administrator reads them by village and by cashier, downloads the statistics,
 * opens revenue and the reconciliation (each difference a card write pending, a village without
 * money at zero difference, the ledger's checks passed); the cashier reads the recharge records
 * and prints the day's cash report.
 */

const RECHARGE_RECORD = '/skgg/rechargeRecord';
const STATISTICS = '/skgg/statistics';
const REVENUE = '/skgg/revenue';
const CASHIER: Credentials = { tenantCode: 'demo', username: 'cashier', password: 'cashier123' };

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

/** The text of the table row holding `text`. */
const rowOf = (page: Page, path: string, testId: string, text: string) =>
  view(page, path).getByTestId(testId).locator('tr', { hasText: text });

describe('statistics', () => {
  it('sums the recharges by village and by cashier, and downloads them', async () => {
    await admin.goto(STATISTICS);
    const page = view(admin, STATISTICS);
    await page.getByTestId('statistics-chart').and(page.locator('[data-ready="true"]')).waitFor();
    await expect
      .poll(() => rowOf(admin, STATISTICS, 'statistics-table', '东庄村').first().textContent())
      .toContain('650.00');
    await expect
      .poll(() => rowOf(admin, STATISTICS, 'statistics-table', '西河村').first().textContent())
      .toContain('400.00');
    await expect
      .poll(() => page.getByTestId('statistics-total').textContent())
      .toContain('1250.00');

    await page.getByTestId('statistics-group').getByText('Cashier').click();
    await expect
      .poll(() => page.getByTestId('statistics-total').textContent())
      .toContain('1250.00');
    await expect
      .poll(() => page.getByTestId('statistics-table').locator('tbody tr').count())
      .toBeGreaterThanOrEqual(1);

    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      page.getByTestId('statistics-export-xlsx').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^statistics-cashier-.*\.xlsx$/);
  });
});

describe('recharge records and the daily cash report', () => {
  it('lists the recharges and counts the cashier’s drawer, printable as pdf', async () => {
    await cashier.goto(RECHARGE_RECORD);
    const page = view(cashier, RECHARGE_RECORD);
    const records = page.getByTestId('resource-table');
    await records.getByText('东庄村').first().waitFor();
    await expect.poll(() => records.locator('tbody tr.ant-table-row').count()).toBe(8);
    await expect.poll(() => records.textContent()).toContain('300.00');

    await page.getByRole('tab', { name: 'Daily cash report' }).click();
    const total = page.getByTestId('cash-report-total');
    await total.waitFor();
    await expect.poll(() => total.textContent()).toContain('1250.00');
    expect(await total.textContent()).toMatch(/8$/);

    const [download] = await Promise.all([
      cashier.waitForEvent('download'),
      page.getByTestId('cash-report-export-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cash-report-\d{4}-\d{2}-\d{2}-.*\.pdf$/);
  });
});

describe('revenue and the reconciliation', () => {
  it('explains every difference, shows a village at zero and the ledger’s checks passed', async () => {
    await admin.goto(REVENUE);
    const page = view(admin, REVENUE);
    await page.getByTestId('revenue-chart').and(page.locator('[data-ready="true"]')).waitFor();

    await page.getByRole('tab', { name: 'Reconciliation' }).click();
    const summary = page.getByTestId('reconciliation-summary');
    await expect.poll(() => summary.textContent()).toMatch(/Card users\s*12/);
    await expect.poll(() => summary.textContent()).toMatch(/With a difference\s*8/);
    await page.getByTestId('reconciliation-explained').waitFor();
    // 王建国's 200.00 is in the ledger, not yet on his card.
    const row = rowOf(admin, REVENUE, 'reconciliation-table', '王建国');
    await expect.poll(() => row.textContent()).toContain('Card write pending');
    await expect.poll(() => row.textContent()).toContain('-200.00');

    const checks = page.getByTestId('ledger-checks');
    await checks.and(page.locator('[data-passed="true"]')).waitFor();
    expect(await checks.getByText('Passed').count()).toBe(5);

    await page.getByTestId('reconciliation-village').locator('input').fill('北岗村');
    await page.getByTestId('reconciliation-village').locator('input').press('Enter');
    await page.getByTestId('reconciliation-zero').waitFor();
    await expect.poll(() => summary.textContent()).toMatch(/Card users\s*3/);
  });
});
