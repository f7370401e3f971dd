import {
  AREA_DEVICE_CALLS,
  AREAS,
  areaOf,
  areaScreenPath,
  deviceTopic,
  entityCalls,
  sysUserEntity,
  type AreaDef,
  type AreaDevicePage,
  type ThingParam,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sidebarLabels, signedIn, view } from './admin-console';
import { apiData, connectDevice } from './field-devices';
import {
  DEMO_ADMIN,
  DEMO_OPERATOR,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';

/**
 * The monitoring areas' device lists and monitors against the real server: demo devices, a
 * real MQTT device publishing over the server's /mqtt, an operator and a zone-confined user.
 */

let rig: ConsoleRig;
let admin: Page;
let device: MqttClient | undefined;

/** The area's devices as the server answers the admin (the expectation of the screen). */
const areaPage = (area: AreaDef, query = '') =>
  apiData<AreaDevicePage>(
    admin,
    'GET',
    `${AREA_DEVICE_CALLS.query}?area=${area.code}&pageSize=500${query}`,
  );

/** Opens an area screen by its address and waits for its view. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForPath(page, path);
  return view(page, path);
}

/** The device numbers of the rows the list shows now. */
const rowNumbers = (page: Page, path: string) =>
  view(page, path)
    .getByTestId('area-device-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-device-no')));

/** Waits until the list shows exactly these devices (it reads again after every filter). */
async function waitForRows(page: Page, path: string, numbers: string[]) {
  const want = [...numbers].sort().join(',');
  await poll(async () => ((await rowNumbers(page, path)) as string[]).sort().join(',')).toBe(want);
}

/** Waits for what the page shows to come right (the page redraws as answers and pushes arrive). */
const poll = <T>(read: () => Promise<T> | T) =>
  expect.poll(read, { timeout: 20_000, interval: 100 });

/** Picks an option of an antd select that is open now. */
async function choose(page: Page, text: string) {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .click();
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
});

afterAll(async () => {
  await device?.endAsync(true);
  await rig?.close();
});

describe('area device lists', () => {
  it('open for every area with its demo devices and its key factors as columns', async () => {
    // Every area with a device list (video's cameras are listed by their management page).
    for (const area of AREAS.filter((one) => one.screens.deviceList)) {
      const path = areaScreenPath(area, 'deviceList')!;
      const expected = await areaPage(area);
      expect(expected.total, area.code).toBeGreaterThan(0);
      const list = await open(admin, path);
      await waitForRows(
        admin,
        path,
        expected.list.map((row) => row.deviceNo),
      );
      const columns = await list
        .locator('thead.ant-table-thead [data-testid="area-factor-column"]')
        .evaluateAll((cells) =>
          cells.map((cell) => [cell.getAttribute('data-key'), cell.textContent]),
        );
      const properties = expected.products.flatMap((product) => product.thingModel.properties);
      expect(columns, area.code).toEqual(
        area.keyFactors.map((key) => [key, properties.find((p) => p.key === key)?.name.en ?? key]),
      );
      // The summary counts the whole filtered set.
      await poll(() => list.getByTestId('area-count-total').getAttribute('data-count')).toBe(
        String(expected.total),
      );
    }
  });

  it('narrow by connection, zone and text, and show a real device’s live value without reading again', async () => {
    const area = areaOf('irrigation')!;
    const path = areaScreenPath(area, 'deviceList')!;
    const all = await areaPage(area);
    const target = all.list[0]!;
    const list = await open(admin, path);
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );

    // A real device connects over MQTT: the list learns it is online from the broker.
    device = await connectDevice(rig, admin, target.id);
    const requests: string[] = [];
    admin.on('request', (request) => {
      if (request.url().includes(AREA_DEVICE_CALLS.query)) requests.push(request.url());
    });

    // A reading the thing model accepts, in the middle of its range.
    const property = all.products
      .find((product) => product.id === target.productId)!
      .thingModel.properties.find((candidate) => candidate.key === 'pressure') as ThingParam;
    const value = Number(((property.max! + property.min!) * 0.37).toFixed(property.precision));
    const text = `${value.toFixed(property.precision)} ${property.unit}`;
    const cell = list.locator(
      `[data-testid="area-value"][data-key="pressure"][data-device-no="${target.deviceNo}"]`,
    );
    const topic = deviceTopic('demo', target.deviceNo, 'telemetry');
    const payload = JSON.stringify({ values: { pressure: value } });
    // Published until shown: the page subscribes once it has its rows; nothing is retained.
    const timer = setInterval(() => void device!.publishAsync(topic, payload, { qos: 1 }), 500);
    try {
      await cell.filter({ hasText: text }).waitFor();
    } finally {
      clearInterval(timer);
    }
    expect(requests).toEqual([]);
    await list
      .locator(`[data-testid="area-device-row"][data-device-no="${target.deviceNo}"]`)
      .locator('[data-testid="device-online-dot"][data-online="true"]')
      .waitFor();

    // Connection: the one device online.
    await list.getByTestId('area-filter-online').click();
    await choose(admin, 'Online');
    await waitForRows(admin, path, [target.deviceNo]);
    await list.getByTestId('area-filter-reset').click();
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );

    // A zone: its devices only, as the server counts them.
    const zoned = all.list.find((row) => row.zoneId !== null)!;
    const inZone = await areaPage(area, `&zoneId=${zoned.zoneId}`);
    expect(inZone.total).toBeLessThan(all.total);
    await list.getByTestId('area-filter-zone').click();
    await admin
      .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', {
        hasText: zoned.zoneName!,
      })
      .first()
      .click();
    await waitForRows(
      admin,
      path,
      inZone.list.map((row) => row.deviceNo),
    );
    await list.getByTestId('area-filter-reset').click();
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );

    // Text: part of a device's number.
    const other = all.list.at(-1)!;
    await list.getByTestId('area-filter-text').locator('input').fill(other.deviceNo.slice(-6));
    await list.getByTestId('area-filter-text').locator('input').press('Enter');
    await waitForRows(admin, path, [other.deviceNo]);
    await list.getByTestId('area-filter-reset').click();
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );
  });

  it('show the devices as cards with the area’s widget, and on the map', async () => {
    const area = areaOf('irrigation')!;
    const path = areaScreenPath(area, 'deviceList')!;
    const all = await areaPage(area);
    const list = await open(admin, path);
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );

    await list.getByTestId('area-view').getByText('Cards').click();
    const cards = list.getByTestId('area-device-card');
    await poll(() => cards.count()).toBe(all.total);
    const states = await cards.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-state')),
    );
    expect(states.every((state) => ['ok', 'offline', 'fault', 'alarm'].includes(state!))).toBe(
      true,
    );
    await cards.first().getByTestId(`widget-${area.widgets.card}`).waitFor();

    await list.getByTestId('area-view').getByText('Map').click();
    const located = all.list.filter((row) => row.lat !== null && row.lng !== null).length;
    expect(located).toBeGreaterThan(0);
    const canvas = list.getByTestId('devices-map-canvas');
    await poll(() => canvas.getAttribute('data-markers')).toBe(String(located));
    await poll(() => canvas.locator('path.leaflet-interactive').count()).toBe(located);

    await list.getByTestId('area-view').getByText('List').click();
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );
  });

  it('open a row as the device’s page', async () => {
    const area = areaOf('pumpStation')!;
    const path = areaScreenPath(area, 'deviceList')!;
    const all = await areaPage(area);
    await open(admin, path);
    await waitForRows(
      admin,
      path,
      all.list.map((row) => row.deviceNo),
    );
    await view(admin, path)
      .locator(`[data-testid="area-device-row"][data-device-no="${all.list[1]!.deviceNo}"] td`)
      .last()
      .click();
    await waitForPath(admin, `/iot/device/${all.list[1]!.id}`);
  });
});

describe('area monitors', () => {
  for (const code of ['soilMoisture', 'weatherStation']) {
    it(`${code}: a card per device, and the selected device's panels`, async () => {
      const area = areaOf(code)!;
      const path = areaScreenPath(area, 'monitor')!;
      const all = await areaPage(area);
      const monitor = await open(admin, path);
      const cards = monitor.getByTestId('area-device-card');
      await poll(() => cards.count()).toBe(all.total);
      expect(
        await cards.evaluateAll((nodes) =>
          nodes.map((node) => node.getAttribute('data-device-no')),
        ),
      ).toEqual(all.list.map((row) => row.deviceNo));
      await poll(() => monitor.getByTestId('area-count-offline').getAttribute('data-count')).toBe(
        String(all.counts.offline),
      );
      await cards.nth(1).click();
      const panels = monitor.getByTestId('area-panels');
      await poll(() => panels.getAttribute('data-device-no')).toBe(all.list[1]!.deviceNo);
      await poll(() => cards.nth(1).getAttribute('data-selected')).toBe('true');
    });
  }
});

describe('who sees the areas', () => {
  it('the operator has the area menus it works with, and their device lists', async () => {
    const operator = await signedIn(rig, DEMO_OPERATOR);
    const labels = await sidebarLabels(operator);
    for (const label of [
      'Irrigation',
      'Irrigation devices',
      'Irrigation data report',
      'Pump stations',
      'Soil moisture monitor',
      'Weather monitor',
      'Device data report',
      'All warnings',
    ])
      expect(labels, label).toContain(label);
    expect(labels).not.toContain('Irrigation configuration');

    // The menu search finds an area screen by its title, and it opens as a tag.
    if ((await operator.getByTestId('header-search-select').count()) === 0)
      await operator.getByTestId('header-search-button').click();
    await operator.getByTestId('header-search-select').locator('input').fill('weather monitor');
    await operator
      .locator('.ant-select-dropdown .ant-select-item-option')
      .first()
      .filter({ hasText: 'Weather stations > Weather monitor' })
      .waitFor();
    await operator.keyboard.press('Enter');
    await waitForPath(operator, '/weatherStation/weatherMonitor');
    await view(operator, '/weatherStation/weatherMonitor')
      .getByTestId('area-device-card')
      .first()
      .waitFor();
    await operator
      .getByTestId('tags-view')
      .getByTestId('tag')
      .filter({ hasText: 'Weather monitor' })
      .waitFor();
    const area = areaOf('weatherStation')!;
    const path = areaScreenPath(area, 'deviceList')!;
    const all = await areaPage(area);
    await open(operator, path);
    await waitForRows(
      operator,
      path,
      all.list.map((row) => row.deviceNo),
    );
    await operator.context().close();
  });

  it('a user confined to a zone sees only that zone’s devices', async () => {
    const area = areaOf('irrigation')!;
    const all = await areaPage(area);
    const zoned = all.list.find((row) => row.zoneId !== null)!;
    const inZone = await areaPage(area, `&zoneId=${zoned.zoneId}`);
    const roles = await apiData<{ list: Array<{ id: string; roleCode: string }> }>(
      admin,
      'GET',
      '/api/admin/sysrole/querySysRole?roleCode=ROLE_OPERATOR',
    );
    const orgs = await apiData<{ list: Array<{ id: string }> }>(
      admin,
      'GET',
      '/api/admin/sysorg/querySysOrg',
    );
    const username = `zoned${Date.now().toString(36)}`;
    const user = await apiData<{ id: string }>(admin, 'POST', entityCalls(sysUserEntity).add, {
      username,
      nickname: username,
      password: 'Zoned-user-42',
      orgId: orgs.list[0]!.id,
      roleIds: [roles.list.find((role) => role.roleCode === 'ROLE_OPERATOR')!.id],
    });
    await apiData(admin, 'POST', '/api/admin/syszone/assignZone', {
      userId: String(user.id),
      zoneIds: [zoned.zoneId],
    });
    const confined = await signedIn(rig, {
      tenantCode: 'demo',
      username,
      password: 'Zoned-user-42',
    });
    const path = areaScreenPath(area, 'deviceList')!;
    await open(confined, path);
    await waitForRows(
      confined,
      path,
      inZone.list.map((row) => row.deviceNo),
    );
    expect(inZone.total).toBeLessThan(all.total);
    await confined.context().close();
  });
});
