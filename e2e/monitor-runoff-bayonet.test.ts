import {
  AREA_DEVICE_CALLS,
  entityCalls,
  runoffEventEntity,
  type AreaDevicePage,
} from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';
import { form, signedIn, submitUnlessGone, view, visibleOption } from './admin-console';
import { addDevice, apiData as apiDataOf, ingestReading } from './field-devices';

/**
 * Surface runoff and bayonet stations in Chromium against the real server: the seven routes of
 * the two areas with their content (a runoff plot's event, detected by the server from readings
 * stored here, on its card, its panel with the hydrograph and the report's event list; a
 * bayonet station's flow from its rating curve on its panel and in the report), and a rating
 * curve saved on the configuration page and drawn there.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let rig: ConsoleRig;
let admin: Page;
let plotNo: string;
let stationNo: string;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

const ingest = (deviceNo: string, ts: number, values: Record<string, number>) =>
  ingestReading(rig, deviceNo, ts, values);

/** The first device (by number) of an area. */
async function firstOf(area: string): Promise<string> {
  const page = await apiData<AreaDevicePage>('GET', `${AREA_DEVICE_CALLS.query}?area=${area}`);
  return page.list[0]!.deviceNo;
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  await admin.setViewportSize({ width: 1400, height: 900 });
  // A plot of its own (the demo plots have their simulated past), and a demo station with its curve.
  const plot = await addDevice(admin, {
    serialNo: 'SEDIMENT-1',
    deviceNo: 'E2E-PLOT',
    deviceName: 'E2E runoff plot',
  });
  plotNo = plot.deviceNo;
  stationNo = await firstOf('bayonet');
  // A shower two hours ago on the plot: 10 mm, then a 20-minute hydrograph and a quiet hour.
  const start = Math.floor(Date.now() / MINUTE) * MINUTE - 2 * HOUR;
  await ingest(plotNo, start - 10 * MINUTE, { rainfall: 5 });
  await ingest(plotNo, start, { rainfall: 5, flow: 0 });
  for (const [i, flow] of [0.1, 0.3, 0.2, 0.1, 0].entries())
    await ingest(plotNo, start + (i + 1) * 5 * MINUTE, {
      flow,
      rainfall: 0,
      sedimentConcentration: 10,
    });
  for (let minutes = 30; minutes <= 100; minutes += 5)
    await ingest(plotNo, start + minutes * MINUTE, { flow: 0, rainfall: 0 });
  // The station's level now: 1.3 m, 1.0 m above the demo curve's H0 (Q = 6·1^1.6 = 6 m³/s).
  for (const ago of [20, 10])
    await ingest(stationNo, Date.now() - ago * 1000, {
      waterLevel: 1.3,
      sedimentConcentration: 1.5,
    });
  // The server's periodic detection, brought forward, until it has cut the event.
  await rig.server.db.systemStatement(
    `UPDATE scheduler_trigger SET due_at = now(), fire_at = now()
      WHERE key = 'sediment-flow:runoff-detection' AND state = 'waiting'`,
  );
  const plotId = plot.id;
  const until = Date.now() + 30_000;
  for (;;) {
    const events = await apiData<{ list: Array<{ startAt: string }> }>(
      'GET',
      `${entityCalls(runoffEventEntity).query}?deviceId=${plotId}`,
    );
    if (events.list.some((event) => new Date(event.startAt).getTime() === start + 5 * MINUTE))
      break;
    if (Date.now() > until) {
      const runs = await rig.server.db.systemStatement(
        `SELECT state, result, error FROM scheduler_run WHERE key = 'sediment-flow:runoff-detection'`,
      );
      throw new Error(`the runoff event was not detected: ${JSON.stringify(runs.rows)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
});

afterAll(async () => {
  await rig?.close();
});

/** Opens an area's device list as cards and selects a device's card: its panels open. */
async function selectCard(path: string, deviceNo: string) {
  await admin.goto(path);
  await admin.getByTestId('area-view').getByText('Cards').click();
  const card = admin.locator(`[data-testid="area-device-card"][data-device-no="${deviceNo}"]`);
  await card.waitFor();
  await card.click();
  const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${deviceNo}"]`);
  await panels.waitFor();
  return { card, panels };
}

describe('surface runoff', () => {
  it('shows the plot’s event on its card and its panel with the hydrograph', async () => {
    const { card, panels } = await selectCard('/sedimentFlow/sedimentFlowDeviceList', plotNo);
    // 195 L over the plot; 1.95 mm of 10 mm on the default 100 m² plot.
    await card.getByTestId('runoff-card-volume').filter({ hasText: '0.195 m³' }).waitFor();
    const events = panels.getByTestId('widget-runoffEvents');
    await events.locator('tr', { hasText: '0.195' }).first().waitFor();
    await events.getByTestId('runoff-hydrograph').waitFor();
  });

  it('lists its warnings, settings and the events under the report', async () => {
    await admin.goto('/sedimentFlow/sedimentFlowAlarmList');
    await view(admin, '/sedimentFlow/sedimentFlowAlarmList')
      .getByTestId('resource-table')
      .waitFor();

    await admin.goto('/sedimentFlow/sedimentFlowConfiguration');
    const config = view(admin, '/sedimentFlow/sedimentFlowConfiguration');
    await config.getByTestId('configuration-tabs').waitFor();
    await config.getByRole('tab', { name: 'Automation settings' }).click();
    await config.getByText('Plot area').first().waitFor();

    await admin.goto('/sedimentFlow/sedimentFlowDataReport');
    const report = view(admin, '/sedimentFlow/sedimentFlowDataReport');
    const list = report.getByTestId('report-runoffEventList');
    await list.locator('tr', { hasText: '0.195' }).first().waitFor();
    await expect(report.innerText()).resolves.toContain('Runoff flow');
  });
});

describe('bayonet stations', () => {
  it('shows the flow from the rating curve on the station’s panel and in the report', async () => {
    const { panels } = await selectCard('/bayonet/bayonetDeviceList', stationNo);
    await panels.locator('[data-testid="bayonet-rated-flow"][data-value="6.000"]').waitFor();

    await admin.goto('/bayonet/bayonetDataReport');
    const report = view(admin, '/bayonet/bayonetDataReport');
    await report.getByText('Flow (rating curve)').first().waitFor();
  });

  it('saves a rating curve on the configuration page and draws it', async () => {
    const station = await addDevice(admin, {
      serialNo: 'BAYONET-1',
      deviceNo: `E2E-BAYONET-${Date.now() % 100_000}`,
      deviceName: 'E2E outlet',
    });
    await admin.goto('/bayonet/bayonetConfiguration');
    const screen = view(admin, '/bayonet/bayonetConfiguration');
    await screen.getByRole('tab', { name: 'Rating curves' }).click();
    // The demo stations' curves are drawn first.
    await screen.getByTestId('rating-curve-echart').waitFor();
    await screen.getByTestId('resource-add').click();
    const dialog = form(admin);
    const device = dialog.locator('#form-RatingCurve_deviceId');
    await device.click();
    await device.fill(station.deviceNo);
    await visibleOption(admin, station.deviceNo).click();
    await dialog.locator('#form-RatingCurve_a').fill('10');
    await dialog.locator('#form-RatingCurve_h0').fill('0.5');
    await dialog.locator('#form-RatingCurve_b').fill('1.6');
    const from = dialog.locator('#form-RatingCurve_validFrom');
    await from.click();
    await from.fill('2026-01-01 00:00:00');
    // Enter takes the typed date and closes the picker; the save button submits (on a loaded
    // machine Enter alone sometimes only took the date).
    await from.press('Enter');
    await submitUnlessGone(dialog);
    await screen.getByTestId('resource-table').locator('tr', { hasText: 'E2E outlet' }).waitFor();
    const chart = screen.getByTestId('rating-curve-chart');
    await chart.filter({ hasText: 'E2E outlet' }).waitFor();
    await chart.getByTestId('rating-curve-echart').waitFor();
  });
});
