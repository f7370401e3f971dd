import {
  DEVICE_AREAS,
  alarmRuleEntity,
  deviceTopic,
  entityCalls,
  iotDeviceEntity,
  WORKBENCH_CALLS,
  type WorkbenchOverview,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from './admin-console';
import { apiData as apiDataOf, onlineDevice } from './field-devices';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The workbench as the operations overview (issue 18 item 5), against the real server with the
 * demo's seeded history, alarms and records: devices per area and state, alarms by level, water
 * delivered, the map and the newest records; and a real MQTT device coming online, raising an
 * alarm and going away changes it without a reload.
 */

let rig: ConsoleRig;
let admin: Page;
let device: MqttClient | undefined;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

const overviewNow = () => apiData<WorkbenchOverview>('GET', WORKBENCH_CALLS.overview);
const areaCard = (code: string) => admin.getByTestId(`workbench-area-${code}`);
const areaCount = (code: string, state: string) =>
  areaCard(code).getByTestId(`workbench-area-${state}`);

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
});

afterAll(async () => {
  await device?.endAsync(true);
  await rig?.close();
});

describe('workbench overview', () => {
  it('shows the devices of every area by state, alarms, water and operations', async () => {
    await admin.getByTestId('workbench-overview').waitFor();
    const overview = await overviewNow();
    for (const area of DEVICE_AREAS) {
      const counts = overview.areas.find((row) => row.area === area.code)!;
      expect(counts.total, area.code).toBeGreaterThan(0);
      await expect(areaCard(area.code).getAttribute('data-total')).resolves.toBe(
        String(counts.total),
      );
      for (const state of ['online', 'offline', 'fault', 'alarm'] as const)
        await expect(areaCount(area.code, state).getAttribute('data-count')).resolves.toBe(
          String(counts[state]),
        );
    }
    // The demo's seeded alarms, history and operation records show at first sight.
    expect(overview.alarms!.open).toBeGreaterThan(0);
    for (const [level, count] of Object.entries(overview.alarms!.levels))
      await expect(
        admin.getByTestId(`workbench-alarm-level-${level}`).getAttribute('data-count'),
      ).resolves.toBe(String(count));
    // (Today's water may still be none before the pumps start at dawn.)
    expect(overview.water!.month).toBeGreaterThanOrEqual(overview.water!.today);
    await expect(
      admin.getByTestId('workbench-water-today').getAttribute('data-value'),
    ).resolves.toBe(String(overview.water!.today));
    await expect(
      admin.getByTestId('workbench-water-month').getAttribute('data-value'),
    ).resolves.toBe(String(overview.water!.month));
    await expect(
      admin.getByTestId('workbench-commands-today').getAttribute('data-value'),
    ).resolves.toBe(String(overview.commands!.today));
    // An area's title opens its device list.
    await areaCard('pumpStation').getByRole('link').click();
    await admin.waitForURL((url) => url.pathname === '/pumpStation/pumpDevice');
    await admin.goto('/home/workbench');
    await admin.getByTestId('workbench-overview').waitFor();
  });

  it('draws the located devices on the map and lists the newest alarms and operations', async () => {
    const overview = await overviewNow();
    expect(overview.map.ids.length).toBeGreaterThan(0);
    // Below the fold: the map and the records download when the reader scrolls to them.
    await admin.getByTestId('workbench-activity').scrollIntoViewIfNeeded();
    const canvas = admin.getByTestId('devices-map-canvas');
    await canvas.waitFor();
    await expect(canvas.getAttribute('data-markers')).resolves.toBe(
      String(overview.map.ids.length),
    );
    await admin
      .locator('[data-testid="devices-map-canvas"] path.leaflet-interactive')
      .first()
      .waitFor();

    const alarms = admin.getByTestId('workbench-recent-alarms').getByTestId('workbench-alarm');
    await alarms.first().waitFor();
    expect(await alarms.count()).toBe(overview.alarms!.recent.length);
    const commands = admin
      .getByTestId('workbench-recent-commands')
      .getByTestId('workbench-command');
    await commands.first().waitFor();
    expect(await commands.count()).toBe(overview.commands!.recent.length);
    // A record opens its device.
    const newest = overview.alarms!.recent[0]!;
    await alarms.first().getByRole('link', { name: newest.deviceName! }).click();
    await admin.waitForURL((url) => url.pathname === `/iot/device/${newest.deviceId}`);
    await admin.goto('/home/workbench');
    await admin.getByTestId('workbench-overview').waitFor();
  });

  it('follows a real device coming online, raising an alarm and going away, without a reload', async () => {
    const devices = await apiData<{ list: Array<{ id: string; deviceNo: string }> }>(
      'GET',
      `${entityCalls(iotDeviceEntity).query}?deviceNo=IRR-VALVE-4-03&pageSize=10`,
    );
    const chosen = devices.list.find((row) => row.deviceNo === 'IRR-VALVE-4-03')!;
    await apiData('POST', entityCalls(alarmRuleEntity).add, {
      ruleName: 'Workbench pressure',
      deviceId: chosen.id,
      propertyKey: 'pressure',
      kind: 'above',
      high: 0.5,
      level: 'red',
      status: 1,
    });
    const before = await overviewNow();
    const irrigation = before.areas.find((row) => row.area === 'irrigation')!;
    // A page that reloads loses this mark.
    await admin.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    await areaCount('irrigation', 'online')
      .and(admin.locator(`[data-count="${irrigation.online}"]`))
      .waitFor();

    // The device connects and says it is online (it answers no command).
    ({ client: device } = await onlineDevice(rig, admin, chosen, { ack: false }));
    await areaCount('irrigation', 'online')
      .and(admin.locator(`[data-count="${irrigation.online + 1}"]`))
      .waitFor();

    const red = before.alarms!.levels.red;
    await device.publishAsync(
      deviceTopic('demo', chosen.deviceNo, 'telemetry'),
      JSON.stringify({ values: { pressure: 0.9 } }),
      { qos: 1 },
    );
    await admin
      .getByTestId('workbench-alarm-level-red')
      .and(admin.locator(`[data-count="${red + 1}"]`))
      .waitFor();
    await admin.getByTestId('workbench-activity').scrollIntoViewIfNeeded();
    await admin
      .getByTestId('workbench-recent-alarms')
      .locator(`[data-testid="workbench-alarm"][data-device-no="${chosen.deviceNo}"]`)
      .first()
      .waitFor();

    await device.endAsync();
    device = undefined;
    await areaCount('irrigation', 'online')
      .and(admin.locator(`[data-count="${irrigation.online}"]`))
      .waitFor();
    expect(await admin.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
  });
});
