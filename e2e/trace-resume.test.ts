import { TRACE_CHAIN_CALLS } from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEMO_OPERATOR,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { signedIn, view } from './admin-console';

/**
 * A batch's resume (/traceabilitySystem/resume, issue 21) in Chromium, as the demo's operator:
 * the demo's milled flour shows its chain both ways (plot, farm work with its pre-harvest
 * interval, harvest; milling, packing, shipment), its EPCIS export, label sheet and certificate
 * download; the recalled tomatoes show as recalled on every node made of them; the package
 * list's rows and the search box open a batch's resume.
 */
const RESUME = '/traceabilitySystem/resume';
const PACKAGES = '/traceabilitySystem/package';

let rig: ConsoleRig;
let page: Page;
let flour: string;
let tomatoes: string;

const code = async (where: string) => {
  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ code: string }>(
      `SELECT p.trace_code AS code FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
        WHERE t.tenant_code = 'demo' AND ${where} ORDER BY p.packed_at LIMIT 1`,
    ),
  );
  return rows[0]!.code;
};

/** Opens a batch's resume by its deep link and waits for both timelines. */
async function open(query: string) {
  await page.goto(`${RESUME}${query}`);
  const screen = view(page, RESUME);
  await screen.getByTestId('resume-forward').waitFor();
  return screen;
}

beforeAll(async () => {
  rig = await startConsole();
  flour = await code('p.process_id IS NOT NULL');
  tomatoes = await code('p.recalled_at IS NOT NULL');
  page = await signedIn(rig, DEMO_OPERATOR);
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(async () => {
  await rig?.close();
});

it('shows a package batch’s chain backwards to its plot and forwards to its shipment', async () => {
  const screen = await open(`?code=${flour}`);
  await expect.poll(() => screen.getByTestId('resume-number').textContent()).toBe(flour);
  const backward = screen.getByTestId('resume-backward');
  await expect
    .poll(() => backward.getByTestId('resume-node-plot').first().textContent())
    .toContain('东庄1号地');
  expect(await backward.getByTestId('resume-node-planting').count()).toBe(1);
  // The wheat's spraying: its 14-day interval respected, shown in green.
  const phi = backward.getByTestId('resume-phi').first();
  expect(await phi.getAttribute('class')).toMatch(/green/);
  expect(await backward.getByTestId('resume-node-growth').count()).toBeGreaterThan(2);
  expect(await backward.getByTestId('resume-node-harvest').textContent()).toMatch(/H\d{8}-W01/);
  const forward = screen.getByTestId('resume-forward');
  expect(await forward.getByTestId('resume-node-process').textContent()).toMatch(/M\d{8}-01/);
  expect(await forward.getByTestId('resume-node-package').textContent()).toContain(flour);
  expect(await forward.getByTestId('resume-node-shipment').textContent()).toContain(
    '济南市历下区粮油批发市场',
  );
  expect(await screen.locator('[data-recalled="true"]').count()).toBe(0);
  // The nodes link to their screens; the public page opens the code's /traceHome.
  expect(await forward.getByTestId('resume-node-process').locator('a').getAttribute('href')).toBe(
    '/traceabilitySystem/process',
  );
  expect(await screen.getByTestId('resume-public').getAttribute('href')).toBe(
    `/traceHome?code=${flour}`,
  );
});

it('downloads the EPCIS export, the label sheet and the certificate', async () => {
  const screen = await open(`?code=${flour}`);
  const cases = [
    {
      button: 'resume-epcis',
      url: TRACE_CHAIN_CALLS.epcis,
      type: /^application\/ld\+json/,
      file: /\.jsonld$/,
    },
    {
      button: 'resume-labels',
      url: TRACE_CHAIN_CALLS.labels,
      type: /^application\/pdf$/,
      file: /^labels-.*\.pdf$/,
    },
    {
      button: 'resume-certificate',
      url: TRACE_CHAIN_CALLS.certificate,
      type: /^application\/pdf$/,
      file: /^certificate-.*\.pdf$/,
    },
  ];
  for (const { button, url, type, file } of cases) {
    const answered = page.waitForResponse((response) => response.url().includes(url));
    const download = page.waitForEvent('download');
    await screen.getByTestId(button).click();
    const response = await answered;
    expect(response.status(), button).toBe(200);
    expect(response.headers()['content-type'], button).toMatch(type);
    const body = await response.body();
    if (type.source.includes('pdf')) expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    else expect(JSON.parse(body.toString()).type).toBe('EPCISDocument');
    expect((await download).suggestedFilename(), button).toMatch(file);
  }
});

it('shows a recalled batch as recalled on every node made of it, with no certificate', async () => {
  const screen = await open(`?code=${tomatoes}`);
  await screen.getByTestId('resume-start-recalled').waitFor();
  await screen.getByTestId('resume-recall-alert').waitFor();
  const forward = screen.getByTestId('resume-forward');
  expect(await forward.getByTestId('resume-node-package').getAttribute('data-recalled')).toBe(
    'true',
  );
  expect(await forward.getByTestId('resume-node-shipment').getAttribute('data-recalled')).toBe(
    'true',
  );
  expect(await forward.locator('.ant-timeline-item-red, [class*="red"]').count()).toBeGreaterThan(
    0,
  );
  expect(await screen.getByTestId('resume-certificate').isDisabled()).toBe(true);
  // Its harvest was not recalled itself: only what was packed of it.
  expect(
    await screen
      .getByTestId('resume-backward')
      .getByTestId('resume-node-harvest')
      .getAttribute('data-recalled'),
  ).toBeNull();
});

it('opens a batch from the package list and from the search box', async () => {
  await page.goto(PACKAGES);
  const link = view(page, PACKAGES).getByTestId('row-resume').first();
  await link.waitFor();
  await link.click();
  await waitForPath(page, /^\/traceabilitySystem\/resume\?code=[0-9A-Z]{12}$/);
  await view(page, RESUME).getByTestId('resume-forward').waitFor();

  await page.goto(RESUME);
  const screen = view(page, RESUME);
  await screen.getByTestId('resume-recent').waitFor();
  const input = screen.getByTestId('resume-search-input').locator('input');
  await input.fill('M');
  // The milling (its package batch, whose lot is the milling's number, is offered too).
  const option = page.locator('.ant-select-dropdown:visible').getByTestId('batch-option-process');
  await option.waitFor();
  await option.click();
  await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toMatch(/^M\d{8}-01$/);
  await expect
    .poll(() => screen.getByTestId('resume-node-process').first().textContent())
    .toMatch(/M\d{8}-01/);
});
