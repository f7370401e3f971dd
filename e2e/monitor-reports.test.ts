import fs from 'node:fs/promises';
import {
  AREA_DEVICE_CALLS,
  AREA_SETTING_CALLS,
  areaOf,
  entityCalls,
  iotDeviceEntity,
  MONITOR_THRESHOLD_CALLS,
  type AreaDevicePage,
  type ThingModel,
  type ThingProperty,
} from '@shuili/contract';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';
import { signedIn, view, visibleOption } from './admin-console';
import { apiData as apiDataOf, ingestReading } from './field-devices';

/**
 * The area screens of reports, warnings, operation records, regional management and monitor
 * configuration against the real server: readings go in through the real ingestion, alarms are
 * raised by the real rules, commands are recorded by the real command service.
 */

let rig: ConsoleRig;
let admin: Page;

const HOUR = 3_600_000;

interface AreaDevices {
  devices: AreaDevicePage['list'];
  models: Map<string, ThingModel>;
}

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

async function areaDevices(area: string): Promise<AreaDevices> {
  const page = await apiData<AreaDevicePage>(
    'GET',
    `${AREA_DEVICE_CALLS.query}?area=${area}&pageSize=100`,
  );
  return {
    devices: page.list,
    models: new Map(page.products.map((product) => [product.id, product.thingModel])),
  };
}

const ingest = (deviceNo: string, ts: number, values: Record<string, number>) =>
  ingestReading(rig, deviceNo, ts, values);

/** A value inside a numeric property's range: `fraction` of the way from min to max. */
function valueOf(property: ThingProperty, fraction: number): number {
  const min = property.min ?? 0;
  const max = property.max ?? min + 100;
  if (property.type === 'boolean') return fraction > 0.5 ? 1 : 0;
  if (property.type === 'enum') return property.options?.[0]?.value ?? 0;
  const digits = property.type === 'integer' ? 0 : (property.precision ?? 2);
  return Number((min + (max - min) * fraction).toFixed(digits));
}

/** The last six hours of an area's report factors on every device of it, every half hour. */
async function fillReports(area: string) {
  const { devices, models } = await areaDevices(area);
  const factors = areaOf(area)!.reportFactors;
  const now = Date.now();
  for (const device of devices) {
    const properties = (models.get(device.productId)?.properties ?? []).filter(
      (property) => factors.includes(property.key) && property.type !== 'string',
    );
    for (let step = 12; step >= 1; step -= 1) {
      const values: Record<string, number> = {};
      properties.forEach((property, index) => {
        values[property.key] = valueOf(property, 0.2 + ((step + index) % 5) / 10);
      });
      await ingest(device.deviceNo, now - step * 0.5 * HOUR, values);
    }
  }
  return devices;
}

/** Opens a route and answers its kept-alive view. */
async function open(path: string): Promise<Locator> {
  await admin.goto(path);
  const screen = view(admin, path);
  await screen.waitFor();
  return screen;
}

/** Rows of the report's statistics whose reading count is above zero. */
async function reportShowsData(screen: Locator) {
  await screen.getByTestId('report-stats').waitFor();
  await screen.locator('[data-testid="report-chart"][data-ready="true"]').waitFor();
  await expect
    .poll(() => screen.getByTestId('report-table').locator('tr.ant-table-row').count())
    .toBeGreaterThan(0);
  const counts = await screen
    .getByTestId('report-stats')
    .locator('tr.ant-table-row td:last-child')
    .allInnerTexts();
  expect(counts.some((count) => Number(count) > 0)).toBe(true);
}

/** A factor's thresholds saved as the configuration screen saves them (an area's product). */
async function saveThreshold(area: string, productId: string, propertyKey: string, high: number) {
  await apiData('POST', MONITOR_THRESHOLD_CALLS.save, {
    area,
    productId,
    propertyKey,
    warning: { kind: 'above', high },
    danger: null,
  });
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  await admin.setViewportSize({ width: 1400, height: 900 });
});

afterAll(async () => {
  await rig?.close();
});

describe('data reports', () => {
  beforeAll(async () => {
    for (const area of ['irrigation', 'waterFertilizer', 'soilMoisture', 'weatherStation'])
      await fillReports(area);
  });

  for (const path of [
    '/irrigation/irrigationDataReport',
    '/waterFertilizer/waterFertilizerDataReport',
    '/soilMoisture/soilMoistureDataReport',
    '/weatherStation/weatherDataReport',
  ]) {
    it(`${path} opens on the area's devices with statistics, chart and table`, async () => {
      await reportShowsData(await open(path));
    });
  }

  it('/deviceDataReport reports the chosen area, by day, and exports what it shows', async () => {
    const screen = await open('/deviceDataReport');
    await screen.getByTestId('report-area').click();
    await visibleOption(admin, 'Weather stations').click();
    await reportShowsData(screen);
    await screen.getByTestId('report-bucket').getByText('Daily').click();
    // A row per day of the last week (the tenant's days), dated without a time of day.
    const firstCells = screen
      .getByTestId('report-table')
      .locator('tr.ant-table-row td:first-child');
    await expect
      .poll(async () => {
        const days = await firstCells.allInnerTexts();
        return (
          days.length > 0 &&
          days.length <= 8 &&
          days.every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day))
        );
      })
      .toBe(true);
    const statistics = await screen.getByTestId('report-stats').locator('tr.ant-table-row').count();
    const download = admin.waitForEvent('download');
    await screen.getByTestId('report-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^report-devices-.*\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await fs.readFile(await file.path())) as unknown as ExcelJS.Buffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Time',
      'Device',
      'Property',
      'Mean',
      'Minimum',
      'Maximum',
      'Total',
      'Readings',
      'Unit',
    ]);
    const stats = rows.filter((row) => row[0] === 'Statistics');
    expect(stats).toHaveLength(statistics);
    expect(stats.some((row) => typeof row[3] === 'number' && Number(row[7]) > 0)).toBe(true);
    // Daily points follow the statistics, dated as the tenant reads them.
    expect(
      rows
        .slice(1 + stats.length)
        .every((row) => /^\d{4}-\d{2}-\d{2} 00:00:00$/.test(String(row[0]))),
    ).toBe(true);
  });
});

describe('warnings, operation records, regional management, configuration', () => {
  /** A device of each area with warnings, and the alarm raised on it. */
  const alarmed: Record<string, { deviceNo: string; deviceName: string }> = {};

  beforeAll(async () => {
    const keys: Record<string, string> = {
      pumpStation: 'outletPressure',
      waterFertilizer: 'ec',
      soilMoisture: 'soilMoisture20',
      weatherStation: 'airTemperature',
    };
    for (const [area, key] of Object.entries(keys)) {
      const { devices } = await areaDevices(area);
      const device = devices[0]!;
      await saveThreshold(area, device.productId, key, 1);
      await ingest(device.deviceNo, Date.now() - 1000, { [key]: 2 });
      alarmed[area] = { deviceNo: device.deviceNo, deviceName: device.deviceName };
    }
    // The rules raise the alarms as the readings are stored; wait until all four are there.
    for (const device of Object.values(alarmed)) {
      for (let tries = 0; ; tries += 1) {
        const page = await apiData<{ list: Array<{ deviceIdLabel: string }> }>(
          'GET',
          `/api/iot/alarm/queryAlarmRecord?state=open&pageSize=200`,
        );
        if (page.list.some((row) => row.deviceIdLabel === device.deviceName)) break;
        if (tries > 100) throw new Error(`no alarm of ${device.deviceName}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });

  for (const [path, area, other] of [
    ['/pumpStation/pumpWarnInfor', 'pumpStation', 'soilMoisture'],
    ['/waterFertilizer/waterFertilizerWarnInfor', 'waterFertilizer', 'pumpStation'],
    ['/soilMoisture/soilMoistureWarnInfor', 'soilMoisture', 'weatherStation'],
    ['/weatherStation/weatherWarnInfor', 'weatherStation', 'waterFertilizer'],
  ] as const) {
    it(`${path} lists the area's alarms only`, async () => {
      const screen = await open(path);
      const table = screen.getByTestId('resource-table');
      await table
        .locator('tr.ant-table-row', { hasText: alarmed[area]!.deviceName })
        .first()
        .waitFor();
      await expect(
        table.locator('tr.ant-table-row', { hasText: alarmed[other]!.deviceName }).count(),
      ).resolves.toBe(0);
      await expect(
        table.locator('[data-testid="alarm-level"][data-level="yellow"]').count(),
      ).resolves.toBeGreaterThan(0);
    });
  }

  it('/warningInformation filters every area and acknowledges an alarm', async () => {
    const screen = await open('/warningInformation');
    const table = screen.getByTestId('resource-table');
    for (const device of Object.values(alarmed))
      await table.locator('tr.ant-table-row', { hasText: device.deviceName }).first().waitFor();
    // Search one device: its alarms alone.
    const form = screen.getByTestId('resource-search');
    const toggle = form.getByRole('button', { name: 'More filters' });
    if (await toggle.count()) await toggle.click();
    const soil = alarmed.soilMoisture!;
    await form.locator('#search-AlarmRecord_text').fill(soil.deviceNo);
    await form.getByTestId('resource-search-submit').click();
    await expect
      .poll(async () => {
        const texts = await table.locator('tr.ant-table-row').allInnerTexts();
        return texts.length > 0 && texts.every((text) => text.includes(soil.deviceName));
      })
      .toBe(true);
    const row = table.locator('tr.ant-table-row', { hasText: soil.deviceName });
    await row.first().getByTestId('alarm-ack-row').click();
    await admin.getByTestId('alarm-ack-comment').fill('Irrigated the north plots');
    await admin.getByTestId('alarm-ack-ok').click();
    await row.first().locator('[data-testid=alarm-ack][data-acknowledged=true]').waitFor();
  });

  it('/pumpStation/pumpOperationRecord shows a command sent to a pump, the soil records do not', async () => {
    const { devices } = await areaDevices('pumpStation');
    const pump = devices[1] ?? devices[0]!;
    await apiData('POST', '/api/iot/command/sendCommand', {
      deviceId: pump.id,
      name: 'setFrequency',
      params: { pumpNo: 2, frequency: 35 },
    });
    const screen = await open('/pumpStation/pumpOperationRecord');
    const row = screen
      .getByTestId('resource-table')
      .locator('tr.ant-table-row', { hasText: pump.deviceName });
    await row.filter({ hasText: 'Set frequency' }).first().waitFor();
    const soil = await open('/soilMoisture/soilMoistureOperationRecord');
    await soil.getByTestId('resource-table').waitFor();
    await expect(
      soil.locator('tr.ant-table-row', { hasText: pump.deviceName }).count(),
    ).resolves.toBe(0);
    const fertigation = await open('/waterFertilizer/waterFertilizerOperationRecord');
    await fertigation.getByTestId('resource-table').waitFor();
    await expect(
      fertigation.locator('tr.ant-table-row', { hasText: pump.deviceName }).count(),
    ).resolves.toBe(0);
  });

  for (const [path, area] of [
    ['/waterFertilizer/waterFertilizerRegionalManagement', 'waterFertilizer'],
    ['/soilMoisture/soilMoistureRegionalManagement', 'soilMoisture'],
  ] as const) {
    it(`${path} shows the zones with their devices, and moves a device`, async () => {
      const { devices } = await areaDevices(area);
      const screen = await open(path);
      const rows = screen.getByTestId('region-devices').locator('tr.ant-table-row');
      await expect.poll(() => rows.count()).toBe(devices.length);
      // A zone holding a device: choosing it lists that zone's devices.
      const device = devices[0]!;
      await screen.locator(`[data-testid="region-zone"][data-zone-id="${device.zoneId}"]`).click();
      await rows.filter({ hasText: device.deviceName }).waitFor();
      const inZone = devices.filter((one) => one.zoneId === device.zoneId).length;
      await expect.poll(() => rows.count()).toBe(inZone);
      // Move it up to the district itself: it leaves the canal section's list.
      await rows.filter({ hasText: device.deviceName }).getByTestId('region-move').click();
      // The zone tree opens once the dialog has finished opening, and a click during either
      // animation can land on nothing: open the tree and choose the district until the select
      // shows it (the state that matters), whatever the animations did in between.
      const zoneSelect = admin.locator('.ant-modal:visible').getByTestId('region-move-zone');
      const district = admin
        .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper')
        .filter({ hasText: /^演示灌区$/ });
      await expect
        .poll(
          async () => {
            if ((await district.count()) === 1) await district.click({ timeout: 1_000 });
            else await zoneSelect.click({ timeout: 1_000 });
            return (await zoneSelect.innerText({ timeout: 500 })).trim();
          },
          { timeout: 20_000, interval: 300 },
        )
        .toBe('演示灌区');
      const dropdown = admin.locator('.ant-select-dropdown:visible');
      // The tree's dropdown closes (animated) before the dialog's button can be pressed.
      await expect.poll(() => dropdown.count()).toBe(0);
      const moved = admin.waitForResponse((response) =>
        response.url().includes(entityCalls(iotDeviceEntity).update),
      );
      await admin.getByTestId('region-move-ok').click();
      const answer = await moved;
      expect(answer.status(), await answer.text()).toBe(200);
      const sent = answer.request().postDataJSON() as { id: string; zoneId: string | null };
      expect(sent.id).toBe(device.id);
      expect(sent.zoneId).not.toBe(device.zoneId);
      await expect.poll(() => rows.count()).toBe(inZone - 1);
      const after = await areaDevices(area);
      const movedTo = after.devices.find((one) => one.id === device.id)!.zoneId;
      expect(movedTo).not.toBe(device.zoneId);
      expect(after.devices.find((one) => one.id === device.id)!.zoneName).toBe('演示灌区');
    });
  }

  it('/pumpStation/pumpMonitorConfiguration saves a threshold; a reading past it raises an alarm', async () => {
    const { devices } = await areaDevices('pumpStation');
    const pump = devices[2] ?? devices[0]!;
    const screen = await open('/pumpStation/pumpMonitorConfiguration');
    const row = screen.locator('[data-testid="threshold-table"] tr[data-factor="forebayLevel"]');
    await row.waitFor();
    await row.getByTestId('threshold-forebayLevel-danger-kind').click();
    await visibleOption(admin, 'Below').click();
    await row.getByTestId('threshold-forebayLevel-danger-low').locator('input').fill('0.5');
    await row.getByTestId('threshold-forebayLevel-save').click();
    await expect
      .poll(async () => {
        const rules = await apiData<{ list: Array<{ level: string; low: number; kind: string }> }>(
          'GET',
          `/api/iot/alarm/queryAlarmRule?propertyKey=forebayLevel&productId=${pump.productId}&pageSize=50`,
        );
        return rules.list.some(
          (rule) => rule.level === 'red' && rule.kind === 'below' && rule.low === 0.5,
        );
      })
      .toBe(true);
    await ingest(pump.deviceNo, Date.now() - 500, { forebayLevel: 0.2 });
    const warnings = await open('/pumpStation/pumpWarnInfor');
    await warnings.getByTestId('resource-refresh').click();
    await warnings
      .getByTestId('resource-table')
      .locator('tr.ant-table-row', { hasText: pump.deviceName })
      .locator('[data-testid="alarm-level"][data-level="red"]')
      .first()
      .waitFor();
  });

  it('/pumpStation/pumpMonitorConfiguration keeps a station its own dry-run level', async () => {
    const { devices } = await areaDevices('pumpStation');
    const screen = await open('/pumpStation/pumpMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Automation settings' }).click();
    const form = screen.getByTestId('settings-form');
    // The tab opens on the area's first device.
    const level = form.locator('#area-settings_dryRunLevel');
    await expect.poll(() => level.inputValue()).not.toBe('');
    await level.fill('1.25');
    await form.getByTestId('settings-save').click();
    await expect
      .poll(async () => {
        const page = await apiData<{ list: Array<{ values: Record<string, unknown> }> }>(
          'GET',
          `${AREA_SETTING_CALLS.query}?area=pumpStation&deviceId=${devices[0]!.id}`,
        );
        return page.list[0]?.values.dryRunLevel;
      })
      .toBe(1.25);
  });

  for (const path of [
    '/irrigation/irrigationMonitorConfiguration',
    '/waterFertilizer/waterFertilizerMonitorConfiguration',
  ]) {
    it(`${path} opens on the area's factors`, async () => {
      const screen = await open(path);
      await expect
        .poll(() => screen.locator('[data-testid="threshold-table"] tr[data-factor]').count())
        .toBeGreaterThan(0);
    });
  }
});
