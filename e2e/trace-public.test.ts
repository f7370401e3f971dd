import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { traceCodeCheckChar } from '@shuili/contract';
import { seedChain } from '@shuili/server/modules/trace/public/public-trace-test-kit';
import { pathOf, startConsole, waitForPath, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The public trace pages on a phone without a session (issue 21 item 5): /traceHome of the demo
 * district's package batches (seeded with the demo data; read from the database), the recall
 * banner, the sensor card, the scan note, /search, and that no console code is downloaded.
 */
let rig: ConsoleRig;
const contexts: BrowserContext[] = [];
let ordinary: string;
let recalled: string | undefined;

/** A phone: 375×667, touch, no cookies, the given language. */
async function phone(locale: string): Promise<{ page: Page; scripts: string[] }> {
  const context = await rig.browser.newContext({
    baseURL: rig.server.url,
    locale,
    viewport: { width: 375, height: 667 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  contexts.push(context);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return { page, scripts };
}

beforeAll(async () => {
  rig = await startConsole();
  const codes = async () =>
    rig.server.db.system(async (sql) => {
      const { rows } = await sql.query<{ trace_code: string; recalled: boolean; sensors: boolean }>(
        `SELECT p.trace_code, trace_package_recalled(p.id) AS recalled,
                EXISTS (SELECT 1 FROM trace_harvest h JOIN trace_planting pl ON pl.id = h.planting_id
                          JOIN trace_area_device d ON d.area_id = pl.area_id
                         WHERE h.id = p.harvest_id) AS sensors
           FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
          WHERE t.tenant_code = 'demo' ORDER BY p.id`,
      );
      return rows;
    });
  let demo = await codes();
  // The demo data's batches; a chain of the test's own when the demo seeds none.
  if (!demo.some((row) => !row.recalled)) {
    await seedChain(rig.server.db, 'demo', 'PhoneCheck');
    demo = await codes();
  }
  const withSensors = demo.find((row) => !row.recalled && row.sensors);
  ordinary = (withSensors ?? demo.find((row) => !row.recalled)!).trace_code;
  recalled = demo.find((row) => row.recalled)?.trace_code;
});

afterAll(async () => {
  await Promise.allSettled(contexts.map((context) => context.close()));
  await rig?.close();
});

it('shows a batch on a phone without signing in, loading no console code', async () => {
  const { page, scripts } = await phone('zh-CN');
  await page.goto(`/traceHome?code=${ordinary}`);
  await page.locator('main .card h2', { hasText: '产品' }).first().waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
  // The chain as one timeline, each entry marked as typed in.
  const entries = page.locator('ol.timeline > li');
  expect(await entries.count()).toBeGreaterThanOrEqual(3);
  expect(await entries.first().locator('.badge.entered').textContent()).toBe('人工录入');
  // Conditions the plot's devices recorded, marked as such.
  await expect
    .poll(() => page.locator('[data-source="sensor"] .badge.sensor').first().textContent())
    .toBe('传感器记录');
  await page.locator('footer.scans', { hasText: '已被扫描' }).waitFor();
  // Phone first: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // One small script of its own: no React, no antd, nothing of the console.
  expect(scripts.length).toBe(1);
  expect(scripts[0]).toMatch(/^\/assets\/traceHome-[\w-]+\.js$/);
});

it('puts the recall banner first on a recalled batch', async () => {
  if (!recalled) return; // the demo data seeds one; the test's own chain has none
  const { page } = await phone('en-US');
  await page.goto(`/traceHome?code=${recalled}`);
  const banner = page.locator('main > .recall[role=alert]');
  await banner.waitFor();
  expect(await banner.textContent()).toContain('Recalled: do not eat or sell this product');
  // Above everything else on the page.
  expect(await page.locator('main > :first-child').getAttribute('class')).toBe('recall');
});

it('looks a code up as a person types it, and explains a mistyped one', async () => {
  const { page } = await phone('zh-TW');
  await page.goto('/search');
  const input = page.locator('#code');
  await input.fill('ABC');
  await page.locator('button[type=submit]').click();
  await page.locator('#code-error', { hasText: '溯源碼為12位' }).waitFor();
  // Lower case in groups of four, as printed under the QR code.
  await input.fill(ordinary.toLowerCase().replace(/(.{4})(?=.)/g, '$1-'));
  await page.locator('button[type=submit]').click();
  await waitForPath(page, `/traceHome?code=${ordinary}`);
  await page.locator('ol.timeline').waitFor();
  expect(pathOf(page)).toBe(`/traceHome?code=${ordinary}`);
});

it('says so when no batch has the code, in the browser’s language', async () => {
  const { page } = await phone('en-GB');
  // A well-formed code (its check character fits) that no batch has.
  const unknown = `00000000000${traceCodeCheckChar('00000000000')}`;
  await page.goto(`/traceHome?code=${unknown}`);
  await page
    .locator('.message[role=alert]', { hasText: 'No product has the trace code' })
    .waitFor();
  await page.locator('a[href="/search"]').click();
  await waitForPath(page, '/search');
});
