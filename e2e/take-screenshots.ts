// Takes the README's screenshots from the real console: `npx tsx e2e/take-screenshots.ts`
// (after `npm run build -w @shuili/web`). Writes docs/screenshots/*.png.
import path from 'node:path';
import { REPO_ROOT } from '../apps/server/src/config';
import { startDemoSimulation } from '../apps/server/src/modules/iot/demo-simulation';
import { DEMO_ADMIN, signIn, startConsole, waitForPath } from '@shuili/test-support/console';
import { traceHomeModeScreenshot } from './trace-home-mode-screenshot';
import { traceResumeScreenshot } from './trace-resume-screenshot';
import { jobsScreenshots } from './jobs-screenshots';
import { traceMapScreenshot } from './trace-map-screenshot';
import { traceScreenshots } from './trace-screenshots';

// A month of the demo's past, as `npm start` has it: the charts and water figures are full.
const rig = await startConsole({ config: { demoHistoryDays: 30 } });
try {
  const shots = path.join(REPO_ROOT, 'docs/screenshots');
  const { page } = await rig.newPage('en-US');
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto('/login');
  await page.locator('#login_username').waitFor();
  await page.screenshot({ path: path.join(shots, 'login.png') });
  // The public trace pages, signed out, on a phone.
  await traceScreenshots(rig, shots);
  // The public page's settings beside its preview.
  await traceHomeModeScreenshot(rig, shots);
  // A batch's resume: its chain backwards and forwards.
  await traceResumeScreenshot(rig, shots);
  await jobsScreenshots(rig, shots);
  // The digital map: bases, plots and their devices, one plot opened.
  await traceMapScreenshot(rig, shots);
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
    // The live camera grid (the demo cameras play the server's own test clip) and their management.
    await page.goto('/video');
    await page.locator('[data-testid=video-cell][data-state=playing]').first().waitFor();
    await page.waitForTimeout(2_000);
    await page.screenshot({ path: path.join(shots, 'video.png') });
    await page.goto('/videoManagement');
    await page.locator('.ant-table-row').first().waitFor();
    await page.screenshot({ path: path.join(shots, 'video-management.png') });
    // Flood and silt: the storm station's cards and panels, the silt section past its dredging
    // depth, and every other route of the two areas as it opens.
    await page.goto('/floodMonitor/floodMonitorDeviceList');
    await page.getByTestId('area-view').getByText('Cards').click();
    await page.locator('[data-testid=area-device-card][data-device-no=FLOOD-RTU-01]').click();
    await page.locator('[data-testid=rain-windows-chart][data-ready=true]').waitFor();
    await page.waitForTimeout(2_000);
    await page.screenshot({ path: path.join(shots, 'flood-device-list.png') });
    await page.goto('/silt/siltMonitor');
    await page.locator('[data-testid=area-device-card][data-device-no=SILT-1-01]').click();
    await page.getByTestId('widget-siltTrend').waitFor();
    await page.waitForTimeout(3_000);
    await page.screenshot({ path: path.join(shots, 'silt-monitor.png') });
    for (const [route, file] of [
      ['/floodMonitor/floodMonitorAlarmList', 'flood-alarms.png'],
      ['/floodMonitor/floodMonitorConfiguration', 'flood-configuration.png'],
      ['/floodMonitor/floodMonitorDataReport', 'flood-report.png'],
      ['/silt/siltDevice', 'silt-devices.png'],
      ['/silt/siltDataReport', 'silt-report.png'],
      ['/silt/siltWarnInfor', 'silt-warnings.png'],
      ['/silt/siltRegionalManagement', 'silt-regions.png'],
      ['/silt/siltOperationRecord', 'silt-operations.png'],
    ] as const) {
      await page.goto(route);
      if (route.endsWith('Configuration'))
        await page.getByRole('tab', { name: 'Rainstorm thresholds' }).click();
      await page.waitForTimeout(3_000);
      await page.screenshot({ path: path.join(shots, file) });
    }
    // Surface runoff and bayonet stations: a plot's card beside its events and the hydrograph of
    // the latest, a station's flow from its rating curve, the curves drawn on the configuration,
    // and the other routes of the two areas as they open.
    for (const [route, deviceNo, file] of [
      ['/sedimentFlow/sedimentFlowDeviceList', 'SEDIMENT-1-01', 'runoff-device-list.png'],
      ['/bayonet/bayonetDeviceList', 'BAYONET-1-01', 'bayonet-device-list.png'],
    ] as const) {
      await page.goto(route);
      await page.getByTestId('area-view').getByText('Cards').click();
      await page.locator(`[data-testid=area-device-card][data-device-no=${deviceNo}]`).click();
      await page.getByTestId('area-panels').waitFor();
      await page.waitForTimeout(3_000);
      await page.screenshot({ path: path.join(shots, file) });
    }
    for (const [route, tab, file] of [
      ['/bayonet/bayonetConfiguration', 'Rating curves', 'bayonet-configuration.png'],
      ['/bayonet/bayonetDataReport', undefined, 'bayonet-report.png'],
      ['/sedimentFlow/sedimentFlowAlarmList', undefined, 'runoff-alarms.png'],
      [
        '/sedimentFlow/sedimentFlowConfiguration',
        'Automation settings',
        'runoff-configuration.png',
      ],
      ['/sedimentFlow/sedimentFlowDataReport', undefined, 'runoff-report.png'],
    ] as const) {
      await page.goto(route);
      if (tab) await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(3_000);
      await page.screenshot({ path: path.join(shots, file), fullPage: route.endsWith('Report') });
    }
    // LED screens: a screen's card (the canal notice it shows, with the live level) beside its
    // controls, the programs with their thumbnails, the editor on the canal notice with its live
    // value selected, and set-program after sending it to every screen (their acknowledgements).
    await page.goto('/led/ledDeviceManagement');
    await page.getByTestId('area-view').getByText('Cards').click();
    await page.locator('[data-testid=area-device-card][data-device-no=LED-P10-01]').click();
    await page.getByTestId('widget-ledControl').waitFor();
    await page.waitForTimeout(3_000);
    await page.screenshot({ path: path.join(shots, 'led-device-list.png') });
    await page.goto('/led/ledProgramManagement');
    await page.getByTestId('led-thumbnail').first().waitFor();
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: path.join(shots, 'led-programs.png') });
    await page.locator('tr', { hasText: 'CANAL-LEVEL' }).getByTestId('program-edit').click();
    await page.locator('[data-testid=led-canvas] [data-element=level]').click();
    await page.waitForTimeout(3_000);
    await page.screenshot({ path: path.join(shots, 'led-editor.png'), fullPage: true });
    await page.getByTestId('led-editor-send').click();
    await page.locator('[data-testid=led-send-screens] thead input[type=checkbox]').check();
    await page.getByTestId('led-send').click();
    await page.getByTestId('led-send-progress').waitFor();
    await page.waitForTimeout(4_000);
    await page.screenshot({ path: path.join(shots, 'led-set-program.png'), fullPage: true });
    // Insect traps: the first trap's card beside the gallery of its day, a labelled photo opened
    // large with its species counts, and the species catalogue with its pictures.
    await page.goto('/insectSituationMonitor/insectDeviceList');
    await page.getByTestId('area-view').getByText('Cards').click();
    await page.locator('[data-testid=area-device-card][data-device-no=INSECT-LAMP-01]').click();
    await page.getByTestId('gallery-photo').first().waitFor();
    await page.waitForTimeout(3_000);
    await page.screenshot({ path: path.join(shots, 'insect-device-list.png') });
    await page.locator('[data-testid=gallery-photo]:not([data-labels="0"])').first().click();
    await page.getByTestId('photo-label').first().waitFor();
    await page.waitForTimeout(2_000);
    await page.screenshot({ path: path.join(shots, 'insect-photo.png') });
    await page.keyboard.press('Escape');
    await page.goto('/insectSituationMonitor/insectImageIntroduction');
    await page.locator('img[data-testid=species-picture]').first().waitFor();
    await page.waitForTimeout(2_000);
    await page.screenshot({ path: path.join(shots, 'insect-species.png') });
  } finally {
    await stopSimulation();
  }
  console.log(`screenshots written to ${shots}`);
} finally {
  await rig.close();
}
