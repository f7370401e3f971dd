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
import { api, signedIn } from './admin-console';
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
async function publishUntilShown(value: number, text: string): Promise<void> {
  const card = admin
    .getByTestId(`live-value-${chosen.property.key}`)
    .getByTestId('live-value-text');
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
    await admin.getByTestId(`${formId}-send`).click();
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
