import { FLOOD_CALLS, type FloodThreshold } from '@shuili/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';
import { signedIn, view } from './admin-console';
import { addDevice, apiData as apiDataOf, ingestReading, type AddedDevice } from './field-devices';

/**
 * Flood monitoring and canal silt in Chromium against the real server: the four flood routes and
 * the six silt routes open with their content. A flood station made here reports 60 mm within
 * the hour: the list shows the server's rolling sums, its card the orange rainstorm level the
 * server's station check raised (and the alarm list the warning), its panel the sums per window
 * against the thresholds; a threshold saved on the configuration page is the station's own. A
 * silt station past its dredging depth shows its card, trend panel and silt warning.
 */

const MINUTE = 60_000;
let rig: ConsoleRig;
let admin: Page;
let flood: AddedDevice;
let silt: AddedDevice;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

const ingest = (deviceNo: string, ts: number, values: Record<string, number>) =>
  ingestReading(rig, deviceNo, ts, values);

/** The open alarms of a device by rule name. */
async function openAlarms(deviceId: string): Promise<string[]> {
  const { rows } = await rig.server.db.systemStatement<{ rule_name: string }>(
    `SELECT r.rule_name FROM iot_alarm_record a JOIN iot_alarm_rule r ON r.id = a.rule_id
      WHERE a.device_id = $1 AND a.state = 'open' ORDER BY r.rule_name`,
    [deviceId],
  );
  return rows.map((row) => row.rule_name);
}

/** Opens a route and answers its kept-alive view. */
async function open(path: string): Promise<Locator> {
  await admin.goto(path);
  const screen = view(admin, path);
  await screen.waitFor();
  return screen;
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  await admin.setViewportSize({ width: 1500, height: 950 });
  const suffix = Date.now() % 100_000;
  flood = await addDevice(admin, {
    serialNo: 'FLOOD-RTU',
    deviceNo: `E2E-FLOOD-${suffix}`,
    deviceName: 'E2E rain gauge',
  });
  silt = await addDevice(admin, {
    serialNo: 'SILT-1',
    deviceNo: `E2E-SILT-${suffix}`,
    deviceName: 'E2E silt station',
  });
  // 60 mm in the last hour (orange: 50 mm in 3 h), the level past its warning line (4 m).
  for (const ago of [55, 45, 35, 25, 15, 5])
    await ingest(flood.deviceNo, Date.now() - ago * MINUTE, { rainfall: 10, waterLevel: 4.4 });
  // 0.72 m of silt in a section to be dredged at 0.5 m (the default).
  for (const [ago, depth] of [
    [300, 0.66],
    [120, 0.7],
    [10, 0.72],
  ] as const)
    await ingest(silt.deviceNo, Date.now() - ago * MINUTE, {
      siltDepth: depth,
      sedimentConcentration: 1.2,
      turbidity: 780,
      waterLevel: 1.1,
    });
  // The server's station check (every minute), brought forward, until it has raised both.
  await rig.server.db.systemStatement(
    `UPDATE scheduler_trigger SET due_at = now(), fire_at = now()
      WHERE key = 'monitor:station-warnings' AND state = 'waiting'`,
  );
  const expected = [
    'Rainstorm warning (orange)',
    'Water level above warning level',
    'Silt above dredging depth',
  ].join();
  const until = Date.now() + 30_000;
  for (;;) {
    const raised = [...(await openAlarms(flood.id)), ...(await openAlarms(silt.id))].join();
    if (raised === expected) break;
    if (Date.now() > until) throw new Error(`the station check raised ${raised}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
});

afterAll(async () => {
  await rig?.close();
});

describe('flood monitoring', () => {
  it('lists the rolling sums and draws the warning level, the windows and the level', async () => {
    const list = await open('/floodMonitor/floodMonitorDeviceList');
    const row = list.locator(`[data-testid="area-device-row"][data-device-no="${flood.deviceNo}"]`);
    await row.filter({ hasText: '60.0 mm' }).waitFor();
    await list.getByTestId('area-view').getByText('Cards').click();
    const card = list.locator(
      `[data-testid="area-device-card"][data-device-no="${flood.deviceNo}"]`,
    );
    const widget = card.locator('[data-testid="widget-floodStation"][data-level="orange"]');
    await widget.waitFor();
    await expect(widget.innerText()).resolves.toContain('Orange warning: 60 mm in 3 h');
    await widget.click();
    const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${flood.deviceNo}"]`);
    const windows = panels.locator('[data-testid="rain-windows"][data-sums="60,60,60,60,60"]');
    await windows.waitFor();
    await windows.locator('[data-testid="rain-windows-chart"][data-ready="true"]').waitFor();
    await expect(windows.getByTestId('rain-windows-table').innerText()).resolves.toContain('100');
    await panels.locator('[data-testid="flood-level-chart"][data-lines="2"]').waitFor();
  });

  it('shows the rainstorm warning in the alarm list and the rain in the data report', async () => {
    const warnings = await open('/floodMonitor/floodMonitorAlarmList');
    await warnings
      .getByTestId('resource-table')
      .locator('tr.ant-table-row', { hasText: 'E2E rain gauge' })
      .filter({ hasText: 'Rainstorm warning (orange)' })
      .first()
      .waitFor();
    const report = await open('/floodMonitor/floodMonitorDataReport');
    await report.getByTestId('report-stats').waitFor();
    await report.locator('[data-testid="report-chart"][data-ready="true"]').waitFor();
    await expect(report.getByTestId('report-stats').innerText()).resolves.toContain(
      'Rainfall (5 min)',
    );
  });

  it('saves a station’s own threshold on the configuration page', async () => {
    const config = await open('/floodMonitor/floodMonitorConfiguration');
    await config.getByRole('tab', { name: 'Rainstorm thresholds' }).click();
    const tab = config.getByTestId('flood-threshold-tab');
    await tab.getByRole('spinbutton', { name: 'Orange warning 3 h' }).waitFor();
    const station = tab.getByTestId('flood-threshold-station');
    await station.click();
    await admin.keyboard.type(flood.deviceNo);
    await admin.locator('.ant-select-item-option', { hasText: flood.deviceNo }).click();
    await tab.getByTestId('flood-threshold-own').filter({ hasText: 'national' }).waitFor();
    const red1h = tab.getByRole('spinbutton', { name: 'Red warning 1 h' });
    await red1h.fill('55');
    await tab.getByTestId('flood-threshold-save').click();
    await tab.getByTestId('flood-threshold-own').filter({ hasText: 'own' }).waitFor();
    const saved = await apiData<FloodThreshold>(
      'GET',
      `${FLOOD_CALLS.thresholds}?deviceId=${flood.id}`,
    );
    expect(saved).toMatchObject({ own: true, thresholds: { red: { h1: 55, h3: 100 } } });
  });
});

describe('canal silt', () => {
  it('shows the silt past the dredging depth on the monitor, its trend and the device list', async () => {
    const monitor = await open('/silt/siltMonitor');
    const card = monitor.locator(
      `[data-testid="area-device-card"][data-device-no="${silt.deviceNo}"]`,
    );
    const depth = card.locator('[data-testid="widget-siltDepth"][data-state="dredge"]');
    await depth.waitFor();
    await depth.click();
    const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${silt.deviceNo}"]`);
    await panels.locator('[data-testid="silt-trend-chart"][data-lines="1"]').waitFor();
    await panels.locator('[data-testid="silt-trend-chart"] [data-ready="true"]').waitFor();

    const list = await open('/silt/siltDevice');
    await list
      .locator(`[data-testid="area-device-row"][data-device-no="${silt.deviceNo}"]`)
      .filter({ hasText: '0.72 m' })
      .waitFor();
  });

  it('opens its warnings, report, regions and operation records', async () => {
    const warnings = await open('/silt/siltWarnInfor');
    await warnings
      .getByTestId('resource-table')
      .locator('tr.ant-table-row', { hasText: 'E2E silt station' })
      .filter({ hasText: 'Silt above dredging depth' })
      .first()
      .waitFor();
    const report = await open('/silt/siltDataReport');
    await report.locator('[data-testid="report-chart"][data-ready="true"]').waitFor();
    await expect(report.getByTestId('report-stats').innerText()).resolves.toContain('Silt depth');
    const regions = await open('/silt/siltRegionalManagement');
    await regions.getByTestId('area-regional').waitFor();
    const records = await open('/silt/siltOperationRecord');
    await records.getByTestId('area-operations').getByTestId('resource-table').waitFor();
  });
});
