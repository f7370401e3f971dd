import type { Socket } from 'node:net';
import {
  commandPayloadSchema,
  deviceTopic,
  type DeviceControl,
  type ThingParam,
} from '@shuili/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signedIn, view, visibleOption } from './admin-console';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The device page against the real server: a real MQTT device (mqtt.js over the server's /mqtt)
 * publishes and answers commands while a signed-in administrator watches in Chromium.
 */

let rig: ConsoleRig;
let admin: Page;
/**
 * Server-side ends of the browser's /mqtt WebSockets, to drop them as a network would. Only the
 * browser's: the test device also speaks MQTT over /mqtt, and dropping it too would leave no one
 * to publish the values the page is then expected to show.
 */
const liveSockets: Socket[] = [];

interface Chosen {
  id: string;
  deviceNo: string;
  serialNo: string;
  property: ThingParam;
  control: DeviceControl;
}
let chosen: Chosen;
let device: MqttClient;
/** Commands the device received, as it received them. */
const received: { id: string; name: string; params: Record<string, unknown> }[] = [];

async function apiData<T>(method: string, url: string, body?: unknown): Promise<T> {
  const answer = await api(admin, method, url, body);
  if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

/** A demo device whose product has a numeric property and something the console can send. */
async function chooseDevice(): Promise<Chosen> {
  const page = await apiData<{ list: Array<{ id: string; deviceNo: string }> }>(
    'GET',
    '/api/iot/device/queryIotDevice?currentPage=1&pageSize=100',
  );
  for (const row of page.list) {
    const control = await apiData<DeviceControl>(
      'GET',
      `/api/iot/command/queryDeviceControl?deviceId=${row.id}`,
    );
    if (control.commands.length === 0 && control.writable.length === 0) continue;
    const detail = await apiData<{ serialNo: string; thingModel: { properties: ThingParam[] } }>(
      'GET',
      `/api/iot/device/queryDeviceDetail?id=${row.id}`,
    );
    const property = detail.thingModel.properties.find(
      (candidate) =>
        candidate.type === 'number' &&
        candidate.min !== undefined &&
        candidate.max !== undefined &&
        candidate.precision !== undefined,
    );
    if (!property) continue;
    return {
      id: row.id,
      deviceNo: row.deviceNo,
      serialNo: detail.serialNo,
      property,
      control,
    };
  }
  throw new Error('no demo device with a numeric property and a command');
}

/** A value inside the property's range, and the text the page shows for it. */
function sampleOf(param: ThingParam, fraction: number): { value: number; text: string } {
  const value = Number(
    (param.min! + (param.max! - param.min!) * fraction).toFixed(param.precision),
  );
  const text = value.toFixed(param.precision);
  return { value, text: param.unit ? `${text} ${param.unit}` : text };
}

/**
 * Publishes the reading until the page shows it: the browser's subscription is made when the page
 * opens, and a message sent before it exists reaches nobody (clean session, no retained values).
 */
async function publishUntilShown(value: number, text: string, changed = false): Promise<void> {
  const card = admin
    .getByTestId(`live-value-${chosen.property.key}`)
    .locator(`[data-testid="live-value-text"]${changed ? '[data-changed="true"]' : ''}`);
  const topic = deviceTopic('demo', chosen.deviceNo, 'telemetry');
  const payload = JSON.stringify({ values: { [chosen.property.key]: value } });
  const timer = setInterval(() => void device.publishAsync(topic, payload, { qos: 1 }), 500);
  try {
    await card.filter({ hasText: text }).waitFor();
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  rig = await startConsole();
  const consoleOrigin = new URL(rig.server.url).origin;
  rig.server.app.server.on('upgrade', (request, socket: Socket) => {
    // A browser always sends its page's origin with a WebSocket handshake; mqtt.js in Node
    // (the test device) sends none.
    if (request.url?.startsWith('/mqtt') && request.headers.origin === consoleOrigin)
      liveSockets.push(socket);
  });
  admin = await signedIn(rig, DEMO_ADMIN);
});

afterAll(async () => {
  await device?.endAsync(true);
  await rig?.close();
});

/** The chosen device connects as a real MQTT client and acknowledges every command. */
async function connectDevice(): Promise<void> {
  chosen = await chooseDevice();
  const issued = await apiData<{ username: string; secret: string }>(
    'POST',
    '/api/iot/device/resetDeviceSecret',
    { id: chosen.id },
  );
  device = await connectAsync(`${rig.server.url.replace(/^http/, 'ws')}/mqtt`, {
    clientId: issued.username,
    username: issued.username,
    password: issued.secret,
    reconnectPeriod: 0,
    clean: true,
  });
  device.on('message', (topic, payload) => {
    const command = commandPayloadSchema.parse(JSON.parse(payload.toString()));
    received.push(command);
    void device.publishAsync(
      deviceTopic('demo', chosen.deviceNo, 'cmd/ack'),
      JSON.stringify({ id: command.id, ok: true }),
      { qos: 1 },
    );
  });
  await device.subscribeAsync(deviceTopic('demo', chosen.deviceNo, 'cmd'), { qos: 1 });
  await device.publishAsync(
    deviceTopic('demo', chosen.deviceNo, 'status'),
    JSON.stringify({ online: true }),
    { qos: 1, retain: true },
  );
}

describe('device page', () => {
  beforeAll(connectDevice);

  it('shows a value the device publishes, without reloading', async () => {
    await admin.goto(`/iot/device/${chosen.id}`);
    await admin.getByTestId('device-header').waitFor();
    const sample = sampleOf(chosen.property, 0.37);
    await publishUntilShown(sample.value, sample.text);
    await expect(admin.getByTestId('device-online').getAttribute('data-online')).resolves.toBe(
      'true',
    );
  });

  it('highlights a value that changes, and tells its true age', async () => {
    const tile = admin.getByTestId(`live-value-${chosen.property.key}`);
    // The value shown is not highlighted once it has been there a while ...
    await tile.locator('[data-testid="live-value-text"][data-changed="false"]').waitFor();
    // ... and a new one is.
    const sample = sampleOf(chosen.property, 0.42);
    await publishUntilShown(sample.value, sample.text, true);
    // The age counts on by itself, in seconds ("just now" forever was the old behaviour).
    const age = tile.getByTestId('live-value-age');
    const seconds = async () => Number(/^(\d+) s ago$/.exec((await age.textContent()) ?? '')?.[1]);
    const first = await seconds();
    expect(Number.isInteger(first)).toBe(true);
    await expect.poll(seconds, { timeout: 5000 }).toBeGreaterThanOrEqual(first + 2);
  });

  it('charts two units on two axes', async () => {
    const detail = await apiData<{ thingModel: { properties: ThingParam[] } }>(
      'GET',
      `/api/iot/device/queryDeviceDetail?id=${chosen.id}`,
    );
    // The panel opens on the first two measured quantities (history-series).
    const measured = detail.thingModel.properties.filter((property) => property.type === 'number');
    const units = new Set(measured.slice(0, 2).map((property) => property.unit));
    expect(units.size).toBe(2);
    await admin.locator('[data-testid="history-chart"][data-y-axes="2"]').waitFor();
  });

  it('sends a command from the panel that the device receives and acknowledges', async () => {
    await admin.getByRole('tab', { name: 'Control' }).click();
    const panel = admin.getByTestId('command-panel');
    await panel.waitFor();
    const command = chosen.control.commands[0];
    const formId = command ? `command-${command.key}` : `set-${chosen.control.writable[0]!.key}`;
    const params = command ? command.params : [chosen.control.writable[0]!];
    const form = admin.getByTestId(formId);
    const items = form.locator('.ant-form-item');
    for (const [index, param] of params.entries()) {
      const item = items.nth(index);
      if (param.type === 'number' || param.type === 'integer') {
        await item.locator('input').fill(String(param.min ?? 1));
      } else if (param.type === 'enum') {
        await item.locator('.ant-select').click();
        await admin.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      } else if (param.type === 'string') {
        await item.locator('input').fill('e2e');
      }
    }
    const before = received.length;
    // Whether the confirmation ever zooms, watched from inside the page as it opens (antd marks
    // a running motion `-active`; its `-prepare` step runs either way).
    await admin.evaluate(() => {
      const win = window as unknown as { confirmAnimated: boolean };
      win.confirmAnimated = false;
      new MutationObserver(() => {
        win.confirmAnimated ||=
          document.querySelector('.control-confirm [class*=zoom-appear-active]') !== null;
      }).observe(document.body, { attributes: true, childList: true, subtree: true });
    });
    await admin.getByTestId(`${formId}-send`).click();
    // Every control is confirmed before it goes out, in the console's colour (not antd's own
    // blue) and, as this browser asks for reduced motion, without zooming into place.
    const ok = admin.getByTestId('control-confirm-ok');
    expect(await ok.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
      'rgb(24, 144, 255)',
    );
    expect(
      await admin.evaluate(
        () => (window as unknown as { confirmAnimated: boolean }).confirmAnimated,
      ),
    ).toBe(false);
    await ok.click();
    await admin
      .getByTestId('sent-commands')
      .locator('[data-testid="command-status"][data-status="succeeded"]')
      .waitFor();
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.name).toBe(command ? command.key : 'setProperty');
  });

  it('shows the reconnect control when the live connection drops, and reconnects on click', async () => {
    expect(liveSockets.length).toBeGreaterThan(0);
    const reconnect = admin.getByTestId('live-reconnect');
    expect(await reconnect.count()).toBe(0);
    // As a network failure would: the TCP connection is reset, with no WebSocket close frame
    // and no MQTT DISCONNECT.
    for (const socket of liveSockets.splice(0)) socket.resetAndDestroy();
    await reconnect.waitFor();
    // Only the browser's connection dropped: the device is still there to publish.
    expect(device.connected).toBe(true);
    await reconnect.click();
    await reconnect.waitFor({ state: 'detached' });
    // Live values flow again over the new connection.
    const sample = sampleOf(chosen.property, 0.61);
    await publishUntilShown(sample.value, sample.text);
  });
});

describe('control is never guessed', () => {
  /** A demo valve controller, connected as a real MQTT device that acknowledges commands. */
  let valve: { id: string; deviceNo: string; deviceName: string };
  let valveClient: MqttClient;
  const valveReceived: { name: string; params: Record<string, unknown> }[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    admin.on('pageerror', (error) => pageErrors.push(error.message));
    const list = await apiData<{
      list: Array<{ id: string; deviceNo: string; deviceName: string }>;
    }>('GET', '/api/iot/device/queryIotDevice?currentPage=1&pageSize=100');
    for (const row of list.list) {
      const detail = await apiData<{ serialNo: string }>(
        'GET',
        `/api/iot/device/queryDeviceDetail?id=${row.id}`,
      );
      // Not the device the page tests above connected (one MQTT client per identity).
      if (detail.serialNo === 'IRR-VALVE-4' && row.id !== chosen?.id) {
        valve = row;
        break;
      }
    }
    expect(valve, 'a demo valve controller').toBeDefined();
    const issued = await apiData<{ username: string; secret: string }>(
      'POST',
      '/api/iot/device/resetDeviceSecret',
      { id: valve.id },
    );
    valveClient = await connectAsync(`${rig.server.url.replace(/^http/, 'ws')}/mqtt`, {
      clientId: issued.username,
      username: issued.username,
      password: issued.secret,
      reconnectPeriod: 0,
      clean: true,
    });
    valveClient.on('message', (_topic, payload) => {
      const command = commandPayloadSchema.parse(JSON.parse(payload.toString()));
      valveReceived.push({ name: command.name, params: command.params });
      void valveClient.publishAsync(
        deviceTopic('demo', valve.deviceNo, 'cmd/ack'),
        JSON.stringify({ id: command.id, ok: true }),
        { qos: 1 },
      );
    });
    await valveClient.subscribeAsync(deviceTopic('demo', valve.deviceNo, 'cmd'), { qos: 1 });
    await valveClient.publishAsync(
      deviceTopic('demo', valve.deviceNo, 'status'),
      JSON.stringify({ online: true }),
      { qos: 1, retain: true },
    );
  });

  afterAll(async () => {
    await valveClient?.endAsync(true);
  });

  it('refuses 9, -5, abc, 99999 and an empty form in the page, and the server refuses them too', async () => {
    await admin.goto(`/iot/device/${valve.id}`);
    await admin.getByRole('tab', { name: 'Control' }).click();
    const form = admin.getByTestId('command-openValve');
    const channel = form.locator('.ant-form-item').nth(0);
    const duration = form.locator('.ant-form-item').nth(1);
    const send = admin.getByTestId('command-openValve-send');
    const errorOf = (item: typeof channel, text: string) =>
      item.locator('.ant-form-item-explain-error', { hasText: text }).waitFor();

    await channel.locator('input').fill('9');
    await duration.locator('input').fill('-5');
    await send.click();
    await errorOf(channel, 'Channel must be between 1 and 4');
    await errorOf(duration, 'Duration must be between 1 and 1440');

    await channel.locator('input').fill('abc');
    await duration.locator('input').fill('99999');
    await send.click();
    await errorOf(channel, 'Channel must be a whole number');
    await errorOf(duration, 'Duration must be between 1 and 1440');
    // What was typed stays as typed: nothing was turned into a value to send.
    await expect(channel.locator('input').inputValue()).resolves.toBe('abc');
    await expect(duration.locator('input').inputValue()).resolves.toBe('99999');

    await channel.locator('input').fill('');
    await duration.locator('input').fill('');
    await send.click();
    await errorOf(channel, 'Channel is required');
    await errorOf(duration, 'Duration is required');
    // No confirmation was offered for any of them, and no error escaped to the error log.
    expect(await admin.locator('.control-confirm').count()).toBe(0);
    expect(await admin.getByTestId('error-log-button').count()).toBe(0);
    expect(pageErrors).toEqual([]);

    // Whatever a client sends, the server refuses it naming each parameter.
    for (const params of [
      { channel: 9, durationMinutes: -5 },
      { channel: 'abc', durationMinutes: 99999 },
      {},
    ]) {
      const refused = await api(admin, 'POST', '/api/iot/command/sendCommand', {
        deviceId: valve.id,
        name: 'openValve',
        params,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((one: { field: string }) => one.field).sort()).toEqual([
        'params.channel',
        'params.durationMinutes',
      ]);
    }
    const records = await apiData<{ total: number }>(
      'GET',
      `/api/iot/command/queryCommand?deviceId=${valve.id}`,
    );
    expect(records.total).toBe(0);
    expect(valveReceived).toEqual([]);
  });

  it("puts open and close beside each valve's tile; a confirmed control goes out once", async () => {
    const tile = admin.getByTestId('live-value-valve2State');
    // Cancelling the confirmation sends nothing.
    await tile.getByTestId('tile-action-valve2State-closeValve').click();
    const confirm = admin.locator('.control-confirm .ant-modal-confirm');
    await confirm
      .locator('.ant-modal-confirm-title', { hasText: `Send Close valve to ${valve.deviceName}?` })
      .waitFor();
    await confirm.getByTestId('control-summary').getByText('Channel: 2').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    // Opening asks for its duration in the confirmation, checked like the form.
    await tile.getByTestId('tile-action-valve2State-openValve').click();
    const dialog = admin.locator('.ant-modal', { has: admin.getByTestId('tile-dialog-form') });
    await dialog
      .locator('.ant-modal-title', { hasText: `Send Open valve to ${valve.deviceName}?` })
      .waitFor();
    await dialog.getByTestId('control-summary').getByText('Channel: 2').waitFor();
    await dialog.locator('input').fill('0');
    await admin.getByTestId('tile-dialog-ok').click();
    await dialog
      .locator('.ant-form-item-explain-error', { hasText: 'Duration must be between 1 and 1440' })
      .waitFor();
    await dialog.locator('input').fill('30');
    await admin.getByTestId('tile-dialog-ok').click();
    await dialog.waitFor({ state: 'detached' });

    // Exactly one command, acknowledged by the real device, with the values confirmed.
    await expect
      .poll(
        async () =>
          (
            await apiData<{ list: Array<{ status: string }> }>(
              'GET',
              `/api/iot/command/queryCommand?deviceId=${valve.id}`,
            )
          ).list.map((row) => row.status),
        { timeout: 5000 },
      )
      .toEqual(['succeeded']);
    expect(valveReceived).toEqual([
      { name: 'openValve', params: { channel: 2, durationMinutes: 30 } },
    ]);
    expect(pageErrors).toEqual([]);
  });
});

describe('device list', () => {
  const list = () => view(admin, '/iot/deviceList');
  const row = () => list().locator(`tr[data-row-key="${chosen.id}"]`);

  const search = () => list().getByTestId('resource-search');

  /** Sets a select of the search form and searches until `done` holds (the data may lag). */
  async function searchBy(field: string, option: string, done: () => Promise<boolean>) {
    const more = search().getByRole('button', { name: 'More filters' });
    if (await more.count()) await more.click();
    await search().locator(`#search-IotDevice_${field}`).click({ force: true });
    await visibleOption(admin, option).click();
    await search().getByTestId('resource-search-submit').click();
    await expect
      .poll(
        async () => {
          // The same search again would answer from the cache: refresh asks the server.
          await list().getByTestId('resource-refresh').click();
          await list().locator('.ant-spin-spinning').waitFor({ state: 'detached' });
          return done();
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  }

  it('shows health and connection as words and a dot, and the key live values', async () => {
    await admin.goto('/iot/deviceList');
    // Newest devices first: the chosen one may be on a later page.
    await search().locator('#search-IotDevice_deviceNo').fill(chosen.deviceNo);
    await search().getByTestId('resource-search-submit').click();
    await row().waitFor();
    await expect(row().getByTestId('device-health').textContent()).resolves.toBe('Normal');
    await expect(row().getByTestId('device-online-dot').getAttribute('data-online')).resolves.toBe(
      'true',
    );
    await row()
      .locator(`[data-testid="device-key-value"][data-key="${chosen.property.key}"]`)
      .waitFor();
  });

  it('filters by connection and by alarm, which the server works out', async () => {
    await searchBy('online', 'Yes', async () => {
      const dots = list().getByTestId('device-online-dot');
      const online = await dots.evaluateAll((found) =>
        found.map((dot) => dot.getAttribute('data-online')),
      );
      return online.length > 0 && online.every((value) => value === 'true');
    });
    await list().getByTestId('resource-search-reset').click();
    await search().locator('#search-IotDevice_deviceNo').fill(chosen.deviceNo);

    // A red alarm on the device: a rule and a reading past it, as in the field.
    const high = sampleOf(chosen.property, 0.5).value;
    await apiData('POST', '/api/iot/alarm/addAlarmRule', {
      ruleName: 'e2e list alarm',
      deviceId: chosen.id,
      propertyKey: chosen.property.key,
      kind: 'above',
      level: 'red',
      high,
    });
    const above = sampleOf(chosen.property, 0.9);
    await searchBy('alarmLevel', 'Red', async () => {
      // Again each time: the first reading may come before the rule is in force.
      await device.publishAsync(
        deviceTopic('demo', chosen.deviceNo, 'telemetry'),
        JSON.stringify({ values: { [chosen.property.key]: above.value } }),
        { qos: 1 },
      );
      return (await row().count()) === 1;
    });
    await expect(row().getByTestId('alarm-level').getAttribute('data-level')).resolves.toBe('red');
    const levels = await list()
      .getByTestId('alarm-level')
      .evaluateAll((found) => found.map((tag) => tag.getAttribute('data-level')));
    expect(levels.every((level) => level === 'red')).toBe(true);
  });

  it('opens a row in place, and in a new tab with Ctrl-click', async () => {
    const link = row().getByTestId('row-link');
    await expect(link.getAttribute('href')).resolves.toBe(`/iot/device/${chosen.id}`);
    const opened = admin.context().waitForEvent('page');
    await link.click({ modifiers: ['ControlOrMeta'] });
    const tab = await opened;
    await tab.waitForURL(`**/iot/device/${chosen.id}`);
    await tab.close();
    expect(new URL(admin.url()).pathname).toBe('/iot/deviceList');
    // A plain click anywhere on the row: the same page, without loading the console again.
    await admin.evaluate(() => ((window as { stayed?: boolean }).stayed = true));
    await row().getByTestId('device-health').click();
    await admin.waitForURL(`**/iot/device/${chosen.id}`);
    await expect(admin.evaluate(() => (window as { stayed?: boolean }).stayed)).resolves.toBe(true);
  });
});

describe('thing model editor', () => {
  it('refuses a duplicate key and saves a new property', async () => {
    const products = await apiData<{ list: Array<{ serialNo: string }> }>(
      'GET',
      '/api/iot/product/queryIotProduct?currentPage=1&pageSize=100',
    );
    let serialNo = '';
    let existing = '';
    for (const product of products.list) {
      const found = await apiData<{ thingModel: { properties: ThingParam[] } }>(
        'GET',
        `/api/iot/product/queryThingModel?serialNo=${encodeURIComponent(product.serialNo)}`,
      );
      if (found.thingModel.properties.length === 0) continue;
      serialNo = product.serialNo;
      existing = found.thingModel.properties[0]!.key;
      break;
    }
    expect(serialNo).not.toBe('');
    await admin.goto(`/IOTproductShowEdit/${encodeURIComponent(serialNo)}`);
    await admin.getByTestId('thing-properties').waitFor();
    await admin.getByTestId('thing-properties-add').click();
    const dialog = admin.getByTestId('param-dialog');
    await dialog.locator('#key').fill(existing);
    await dialog.locator('[id="name_en"]').fill('Probe');
    await dialog.locator('[id="name_zh"]').fill('探针');
    await dialog.locator('[id="name_tw"]').fill('探針');
    await admin.getByTestId('param-dialog-ok').click();
    await dialog
      .locator('.ant-form-item-explain-error', {
        hasText: `The key ${existing} is already used here`,
      })
      .waitFor();

    await dialog.locator('#key').fill('e2eProbe');
    await admin.getByTestId('param-dialog-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByTestId('thing-properties').getByText('e2eProbe').waitFor();
    const saved = admin.waitForResponse((response) =>
      response.url().includes('/api/iot/product/updateThingModel'),
    );
    await admin.getByTestId('thing-model-save').click();
    expect((await saved).status()).toBe(200);

    const stored = await apiData<{ thingModel: { properties: ThingParam[] } }>(
      'GET',
      `/api/iot/product/queryThingModel?serialNo=${encodeURIComponent(serialNo)}`,
    );
    const probe = stored.thingModel.properties.find((property) => property.key === 'e2eProbe');
    expect(probe).toMatchObject({ name: { en: 'Probe', zh: '探针', tw: '探針' }, type: 'number' });
  });
});

describe('the demo’s sensor and image screens', () => {
  it('lists sensors with their device linked and thing-model property named, and device images', async () => {
    await admin.goto('/sensorInstance');
    const sensors = view(admin, '/sensorInstance');
    await sensors.getByTestId('screen-intro').waitFor();
    const sensor = sensors.locator('.ant-table-row', { hasText: '1号闸闸前水位' });
    await sensor.waitFor();
    await expect(sensor.getByTestId('binding-device').getAttribute('href')).resolves.toMatch(
      /^\/iot\/device\/\d+$/,
    );
    await sensor.getByTestId('binding-property').filter({ hasText: 'Upstream level' }).waitFor();

    // The demo's traps and cameras add newer images: the gate's photo is found by its name.
    await admin.goto('/imageList');
    const images = view(admin, '/imageList');
    await images.locator('#search-IotDeviceFile_originalName').fill('1号闸门现场照片');
    await images.getByTestId('resource-search-submit').click();
    await images.locator('.ant-table-row', { hasText: '1号闸门现场照片.png' }).waitFor();
  });
});
