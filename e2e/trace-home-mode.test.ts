import { TRACE_PAGE_SETTING_CALLS, TRACE_PHOTO_CALLS } from '@shuili/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';
import { signedIn, view } from './admin-console';

/**
 * The public page's settings (/traceabilitySystem/traceHomeMode, issue 21 item 5) in Chromium:
 * the preview follows the form before saving; a new title and a hidden section, once saved, are
 * what a consumer's phone shows on /traceHome of the demo's newest batch (whose sensor card the
 * demo's simulated history fills). And a photo added to a base from the bases' screen.
 */
const SETTINGS = '/traceabilitySystem/traceHomeMode';
const BASES = '/traceabilitySystem/base';
const TITLE = `东庄鲜蔬 ${Date.now() % 100_000}`;
/** A small PNG (8×8, green): the photo the base is given. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOw6bHBihiGlgQAZj9BAfiTeIYAAAAASUVORK5CYII=',
  'base64',
);

let rig: ConsoleRig;
let admin: Page;
let newest: string;

/** The public page of a code on a phone without a session. */
async function publicPage(code: string): Promise<Page> {
  const context = await rig.browser.newContext({
    baseURL: rig.server.url,
    locale: 'zh-CN',
    viewport: { width: 375, height: 667 },
    isMobile: true,
  });
  const page = await context.newPage();
  await page.goto(`/traceHome?code=${code}`);
  await page.locator('footer.scans').waitFor();
  return page;
}

/** Waits until one of the images has decoded a real picture. */
const decoded = (images: Locator) =>
  expect
    .poll(
      () =>
        images.evaluateAll((nodes) =>
          nodes.some(
            (node) =>
              (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0,
          ),
        ),
      { timeout: 20_000 },
    )
    .toBe(true);

beforeAll(async () => {
  rig = await startConsole();
  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ code: string }>(
      `SELECT p.trace_code AS code FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
        WHERE t.tenant_code = 'demo' ORDER BY p.packed_at DESC, p.id DESC LIMIT 1`,
    ),
  );
  newest = rows[0]!.code;
  admin = await signedIn(rig, DEMO_ADMIN);
  await admin.setViewportSize({ width: 1280, height: 800 });
});

afterAll(async () => {
  await rig?.close();
});

it('saves a title and a hidden section that the public page then shows, previewed first', async () => {
  // Before: the newest batch's page shows the sensors' card and the default title.
  const before = await publicPage(newest);
  await before.locator('[data-source="sensor"] .badge.sensor').first().waitFor();
  expect(await before.locator('header.top h1').textContent()).toBe('产品溯源');
  await before.context().close();

  await admin.goto(SETTINGS);
  const screen = view(admin, SETTINGS);
  const preview = admin.frameLocator('[data-testid="home-mode-preview"]');
  await preview.locator('footer.scans').waitFor({ timeout: 20_000 });
  await preview.locator('[data-source="sensor"]').first().waitFor();

  await screen.getByTestId('home-mode-title').fill(TITLE);
  await screen.getByTestId('home-mode-section-sensors').click();
  // The preview follows the unsaved form.
  await expect.poll(() => preview.locator('header.top h1').textContent()).toBe(TITLE);
  await expect.poll(() => preview.locator('[data-source="sensor"]').count()).toBe(0);

  const saved = admin.waitForResponse(
    (response) => response.url().endsWith(TRACE_PAGE_SETTING_CALLS.save) && response.ok(),
  );
  await screen.getByTestId('home-mode-save').click();
  await saved;

  const after = await publicPage(newest);
  expect(await after.locator('header.top h1').textContent()).toBe(TITLE);
  expect(await after.locator('[data-source="sensor"]').count()).toBe(0);
  // Everything else is still there.
  expect(await after.locator('ol.timeline > li').count()).toBeGreaterThan(2);
  await after.context().close();
});

it('adds a photo to a base from the bases’ screen', async () => {
  await admin.goto(BASES);
  const screen = view(admin, BASES);
  const row = screen.locator('tr', { hasText: '东庄粮菜基地' });
  await row.getByTestId('trace-photos-open').click();
  const panel = admin.getByTestId('trace-photos');
  // The demo's own photo of the base first.
  await decoded(panel.locator('img[data-testid="trace-photo-image"]'));
  const count = await panel.getByTestId('trace-photo').count();

  const uploaded = admin.waitForResponse(
    (response) => response.url().includes(TRACE_PHOTO_CALLS.baseUpload) && response.ok(),
  );
  await admin
    .locator('.ant-drawer')
    .locator('input[type="file"]')
    .setInputFiles({ name: 'field-edge.png', mimeType: 'image/png', buffer: PNG });
  await uploaded;
  await expect.poll(() => panel.getByTestId('trace-photo').count()).toBe(count + 1);
  await panel.locator('[data-testid="trace-photo"]', { hasText: 'field-edge.png' }).waitFor();
  await decoded(
    panel.locator('[data-testid="trace-photo"]', { hasText: 'field-edge.png' }).locator('img'),
  );
});
