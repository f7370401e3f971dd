import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  deviceTopic,
  entityCalls,
  iotDeviceEntity,
  TELEMETRY_CALLS,
  THING_MODEL_CALLS,
  type ThingModel,
  notificationEntity,
  sysUserEntity,
} from '@shuili/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './admin-console';
import {
  DEMO_ADMIN,
  signIn,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';

/**
 * The console under its Content-Security-Policy, and user-supplied strings holding markup: in
 * real Chromium against the real server. Every screen must work with no CSP violation, and no
 * payload may run (window.__xss stays undefined) or turn into markup.
 */

const IMG_PAYLOAD = '<img src=x onerror=window.__xss=1>';
const SCRIPT_PAYLOAD = '<script>window.__xss=1</script>';
const LINK_PAYLOAD = '<a href="javascript:window.__xss=1">link</a>';

/** A one-pixel PNG: every tile of the stand-in tile server. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** The map's tile server (MAP_TILE_URL): another origin, which the CSP must let through. */
let tileServer: http.Server;

let rig: ConsoleRig;
let page: Page;
/** CSP violations and script errors the page reported, as text. */
const problems: string[] = [];

/** Records what the browser reports: securitypolicyviolation events, CSP console errors, crashes. */
async function watch(target: Page): Promise<void> {
  await target.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
      );
    });
  });
  target.on('console', (message) => {
    if (
      message.type() === 'error' &&
      /CSP|Content Security Policy|Refused to/i.test(message.text())
    )
      problems.push(message.text());
  });
  target.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

/** Whether any payload ran in the page. */
const ranPayload = (target: Page) =>
  target.evaluate(() => (window as unknown as { __xss?: unknown }).__xss !== undefined);

async function apiData<T>(method: string, url: string, body?: unknown): Promise<T> {
  const answer = await api(page, method, url, body);
  if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

beforeAll(async () => {
  tileServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(TILE);
  });
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  const { port } = tileServer.address() as AddressInfo;
  rig = await startConsole({
    config: { mapTileUrl: `http://127.0.0.1:${port}/{z}/{x}/{y}.png` },
  });
  ({ page } = await rig.newPage());
  await watch(page);
});

afterAll(async () => {
  await rig?.close();
  tileServer?.closeAllConnections();
  await new Promise((resolve) => tileServer?.close(resolve));
});

describe('the console under its Content-Security-Policy', () => {
  it('ships no inline script in its HTML', () => {
    const index = fs.readFileSync(
      fileURLToPath(new URL('../apps/web/dist/index.html', import.meta.url)),
      'utf8',
    );
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(index).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('signs in and shows every main screen with no violation', async () => {
    const login = await page.goto('/login');
    const csp = login!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();

    const devices = await apiData<{ list: Array<{ id: string }> }>(
      'GET',
      `${entityCalls(iotDeviceEntity).query}?pageSize=1`,
    );
    const screens: Array<[string, () => Promise<void>]> = [
      ['/iot/deviceList', () => page.locator('.ant-table-row').first().waitFor()],
      [`/iot/device/${devices.list[0]!.id}`, () => page.getByTestId('live-values').waitFor()],
      ['/mynotification', () => page.getByTestId('notification-title').first().waitFor()],
      ['/admin/sysuser', () => page.locator('.ant-table-row').first().waitFor()],
      ['/admin/notification', () => page.locator('.ant-table-row').first().waitFor()],
    ];
    for (const [path, shown] of screens) {
      await page.goto(path);
      await shown();
    }
    // The bell's dropdown (antd popups, CSS-in-JS styles) too.
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-panel').waitFor();
    expect(problems).toEqual([]);
  });

  it('shows the API docs under their own policy with no violation', async () => {
    const { page: docs } = await rig.newPage();
    await watch(docs);
    await docs.goto('/api/docs');
    await docs.locator('.swagger-ui .opblock').first().waitFor();
    expect(problems).toEqual([]);
  });
});

describe('user-supplied strings', () => {
  let device: MqttClient | undefined;
  afterAll(async () => {
    await device?.endAsync(true);
  });

  /** A device whose product has a text property (the LED screen's current program). */
  async function demoLed(): Promise<{ id: string; deviceNo: string }> {
    const devices = await apiData<{ list: Array<{ id: string; deviceNo: string }> }>(
      'GET',
      `${entityCalls(iotDeviceEntity).query}?pageSize=100`,
    );
    for (const row of devices.list) {
      const detail = await apiData<{ serialNo: string }>(
        'GET',
        `/api/iot/device/queryDeviceDetail?id=${row.id}`,
      );
      if (detail.serialNo === 'LED-P10') return row;
    }
    throw new Error('no demo LED screen');
  }

  /** The device's own MQTT connection (a fresh secret), as the page's live data comes from it. */
  async function connectDevice(led: { id: string }): Promise<MqttClient> {
    const issued = await apiData<{ username: string; secret: string }>(
      'POST',
      '/api/iot/device/resetDeviceSecret',
      { id: led.id },
    );
    await device?.endAsync(true);
    device = await connectAsync(`${rig.server.url.replace(/^http/, 'ws')}/mqtt`, {
      clientId: issued.username,
      username: issued.username,
      password: issued.secret,
      reconnectPeriod: 0,
    });
    return device;
  }

  it('show as text on every screen and never run', async () => {
    const led = await demoLed();
    const deviceName = `Screen ${IMG_PAYLOAD}${SCRIPT_PAYLOAD}`;
    await apiData('PUT', entityCalls(iotDeviceEntity).update, { id: led.id, deviceName });

    const users = await apiData<{ list: Array<{ id: string; username: string }> }>(
      'GET',
      `${entityCalls(sysUserEntity).query}?pageSize=100`,
    );
    const other = users.list.find((user) => user.username !== DEMO_ADMIN.username)!;
    const nickname = `Op ${IMG_PAYLOAD}`.slice(0, 40);
    await apiData('PUT', entityCalls(sysUserEntity).update, { id: other.id, nickname });

    const title = `Gate notice ${IMG_PAYLOAD}`;
    await apiData('POST', entityCalls(notificationEntity).add, {
      title,
      content: `<p>Gate 3 closes at noon</p>${IMG_PAYLOAD}${SCRIPT_PAYLOAD}<a href="javascript:window.__xss=1">more</a>`,
      type: 'notification',
      priority: 'high',
      publishScope: 'all',
    });

    // The device list and the device page show the name as typed.
    await page.goto(`/iot/deviceList`);
    await page.locator('.ant-table-row', { hasText: deviceName }).first().waitFor();
    await page.goto(`/iot/device/${led.id}`);
    await page.getByTestId('device-header').filter({ hasText: deviceName }).waitFor();

    // A live text value published by the device over MQTT.
    const client = await connectDevice(led);
    const program = `${SCRIPT_PAYLOAD}${IMG_PAYLOAD}`;
    const topic = deviceTopic('demo', led.deviceNo, 'telemetry');
    // Published until shown: the page subscribes when it opens, and no value is retained.
    const timer = setInterval(
      () => void client.publishAsync(topic, JSON.stringify({ values: { program } }), { qos: 1 }),
      500,
    );
    try {
      await page
        .getByTestId('live-value-program')
        .getByTestId('live-value-text')
        .filter({ hasText: program })
        .waitFor();
    } finally {
      clearInterval(timer);
    }

    // The user list shows the nickname as typed.
    await page.goto('/admin/sysuser');
    await page.locator('.ant-table-row', { hasText: nickname }).first().waitFor();

    // The notification: its title as typed, its content sanitised and shown as text.
    await page.goto('/mynotification');
    // The bell lists it (unread) as typed.
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-item').filter({ hasText: title }).first().waitFor();
    await page.getByTestId('notification-bell').click();
    const link = page.getByTestId('notification-title').filter({ hasText: title });
    await link.first().click();
    const detail = page.getByTestId('notification-detail');
    await detail.waitFor();
    expect(await page.getByTestId('notification-content').innerText()).toBe(
      'Gate 3 closes at noon\nmore',
    );

    // Nothing ran, nothing became markup, the policy never had to block anything.
    expect(await ranPayload(page)).toBe(false);
    expect(await page.locator('img[src="x"], img[src$="/x"]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('show as text in the device map and the history chart (third-party widgets)', async () => {
    const led = await demoLed();
    // Leaflet takes a tooltip string as HTML: a link, an image and a script in the name.
    const deviceName = `Gate ${LINK_PAYLOAD}${IMG_PAYLOAD}${SCRIPT_PAYLOAD}`;
    await apiData('PUT', entityCalls(iotDeviceEntity).update, {
      id: led.id,
      deviceName,
      lat: 34.757975,
      lng: 113.665412,
    });
    // The chart's series are named after the thing model's labels and units.
    const product = await apiData<{ serialNo: string; thingModel: ThingModel }>(
      'GET',
      `${THING_MODEL_CALLS.query}?serialNo=LED-P10`,
    );
    const seriesLabel = `Glow ${IMG_PAYLOAD}`;
    const unit = '<a href=/x>u</a>';
    const properties = product.thingModel.properties.map((property) =>
      property.key === 'brightness'
        ? { ...property, name: { en: seriesLabel, zh: seriesLabel, tw: seriesLabel }, unit }
        : property,
    );
    await apiData('PUT', THING_MODEL_CALLS.update, {
      serialNo: 'LED-P10',
      thingModel: { ...product.thingModel, properties },
    });

    // A reading to chart, stored before the page asks for its history.
    const client = await connectDevice(led);
    const topic = deviceTopic('demo', led.deviceNo, 'telemetry');
    await client.publishAsync(topic, JSON.stringify({ values: { brightness: 40 } }), { qos: 1 });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await expect
      .poll(
        async () => {
          const history = await apiData<{ list: unknown[] }>(
            'GET',
            `${TELEMETRY_CALLS.history}?deviceId=${led.id}&keys=brightness&start=${since}&end=${new Date(Date.now() + 60_000).toISOString()}`,
          );
          return history.list.length;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);

    // The history chart's tooltip, shown by pointing at the reading (the right end of the time
    // axis, left of the second unit's axis on the right).
    await page.goto(`/iot/device/${led.id}`);
    const chart = page.locator('[data-testid="history-chart"][data-ready="true"]');
    await chart.waitFor();
    const tooltip = page.locator('.chart-tooltip');
    await expect
      .poll(
        async () => {
          await chart.scrollIntoViewIfNeeded();
          const box = (await chart.boundingBox())!;
          await page.mouse.move(box.x + box.width - 80, box.y + 120);
          await page.mouse.move(box.x + box.width - 70, box.y + 130);
          return tooltip.isVisible();
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(await tooltip.innerText()).toContain(`${seriesLabel} (${unit})`);
    expect(await tooltip.locator('a, img, script').count()).toBe(0);

    // The map's tooltip, over tiles from the configured server (which the CSP lets through).
    await page.getByRole('tab', { name: 'Location' }).click();
    const map = page.getByTestId('device-map-canvas');
    const marker = map.locator('.leaflet-tooltip');
    await marker.waitFor();
    expect(await marker.textContent()).toBe(deviceName);
    expect(await marker.locator('a, img, script').count()).toBe(0);
    await map.locator('img.leaflet-tile-loaded').first().waitFor();
    expect(await page.getByTestId('device-map').locator('.ant-alert').count()).toBe(0);

    expect(await ranPayload(page)).toBe(false);
    expect(await page.locator('img[src="x"], img[src$="/x"], a[href="/x"]').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
