// Takes the README's screenshots from the real console: `npx tsx e2e/take-screenshots.ts`
// (after `npm run build -w @shuili/web`). Writes docs/screenshots/*.png.
import path from 'node:path';
import { REPO_ROOT } from '../apps/server/src/config';
import { startDemoSimulation } from '../apps/server/src/modules/iot/demo-simulation';
import { DEMO_ADMIN, signIn, startConsole, waitForPath } from '@shuili/test-support/console';

// A month of the demo's past, as `npm start` has it: the charts and water figures are full.
const rig = await startConsole({ config: { demoHistoryDays: 30 } });
try {
  const shots = path.join(REPO_ROOT, 'docs/screenshots');
  const { page } = await rig.newPage('en-US');
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto('/login');
  await page.locator('#login_username').waitFor();
  await page.screenshot({ path: path.join(shots, 'login.png') });
  await signIn(page, DEMO_ADMIN);
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench-overview').waitFor();
  await page.screenshot({ path: path.join(shots, 'workbench.png') });
  // The same screen in the other two languages.
  for (const [label, file] of [
    ['简体中文', 'workbench-zh.png'],
    ['繁體中文', 'workbench-tw.png'],
  ] as const) {
    await page.locator('[data-testid=language-select]').click();
    await page.getByText(label, { exact: true }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, file) });
  }
  // A device page with live data: the demo's light simulation runs as `npm start` runs it.
  const port = Number(new URL(rig.server.url).port);
  const stopSimulation = await startDemoSimulation(rig.server.app, rig.server.db, port);
  try {
    await page.locator('[data-testid=language-select]').click();
    await page.getByText('English', { exact: true }).click();
    await page.waitForTimeout(20_000);
    // The whole operations overview with the devices online: its map and newest records load
    // once scrolled to.
    await page.goto('/home/workbench');
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.getByTestId('workbench-activity').scrollIntoViewIfNeeded();
    await page.locator('.leaflet-interactive').first().waitFor();
    await page.waitForTimeout(2_000);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, 'workbench-overview.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 1100 });
    await page.goto('/iot/device/1');
    await page.waitForTimeout(4_000);
    await page.screenshot({ path: path.join(shots, 'device.png') });
    // An area's monitor: the soil stations' cards, the first one's depth profile beside them.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/soilMoisture/soilMoistureMonitor');
    await page.getByTestId('area-device-card').first().click();
    await page.getByTestId('area-panels').waitFor();
    await page.waitForTimeout(3_000);
    await page.screenshot({ path: path.join(shots, 'soil-monitor.png') });
  } finally {
    await stopSimulation();
  }
  console.log(`screenshots written to ${shots}`);
} finally {
  await rig.close();
}
