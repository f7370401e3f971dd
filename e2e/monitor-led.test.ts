import {
  commandPayloadSchema,
  deviceTopic,
  entityCalls,
  LED_CALLS,
  ledProgramEntity,
  type LedProgramContent,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { signedIn, view } from './admin-console';
import { addDevice, apiData as apiDataOf, connectDevice, type AddedDevice } from './field-devices';

/**
 * LED screens in Chromium (issue 19 item 8): the four routes open with content (the demo's
 * programs, the screens' cards), a program is edited on the canvas (a text added and moved,
 * saved) and sent from /led/setProgram to two screens, whose acknowledgements the page shows.
 * The screens are MQTT clients answering as an LED controller does: a program is acknowledged
 * with the values it reports after (`program`: the code it shows).
 */
describe('LED screens: devices, programs, the editor and sending', () => {
  let rig: ConsoleRig;
  let admin: Page;
  const stamp = Date.now() % 100000;
  const screens: AddedDevice[] = [];
  const clients: MqttClient[] = [];

  const apiData = <T>(method: string, url: string, body?: unknown) =>
    apiDataOf<T>(admin, method, url, body);

  /** A 192 × 96 screen online: reports its resolution, acknowledges programs and reports them. */
  const screenOnline = async (device: AddedDevice) => {
    const client = await connectDevice(rig, admin, device.id);
    const topic = (channel: 'cmd/ack' | 'telemetry' | 'status' | 'cmd') =>
      deviceTopic('demo', device.deviceNo, channel);
    const resolution = { width: 192, height: 96, powerOn: true, brightness: 60 };
    client.on('message', (_topic, payload) => {
      const command = commandPayloadSchema.parse(JSON.parse(payload.toString()));
      const program = command.name === 'setProgram' ? String(command.params.programId) : undefined;
      client
        .publishAsync(
          topic('cmd/ack'),
          JSON.stringify({
            id: command.id,
            ok: true,
            ...(program ? { values: { ...resolution, program } } : {}),
          }),
          { qos: 1 },
        )
        .catch(() => undefined);
    });
    await client.subscribeAsync(topic('cmd'), { qos: 1 });
    await client.publishAsync(topic('status'), JSON.stringify({ online: true }), {
      qos: 1,
      retain: true,
    });
    await client.publishAsync(topic('telemetry'), JSON.stringify({ values: resolution }), {
      qos: 1,
    });
    clients.push(client);
  };

  beforeAll(async () => {
    rig = await startConsole();
    admin = await signedIn(rig, DEMO_ADMIN);
    for (const letter of ['A', 'B']) {
      const device = await addDevice(admin, {
        serialNo: 'LED-P10',
        deviceNo: `E2E-LED-${letter}-${stamp}`,
        deviceName: `E2E LED ${letter} ${stamp}`,
      });
      screens.push(device);
      await screenOnline(device);
    }
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync().catch(() => undefined);
    await rig?.close();
  });

  it('opens the device list, the programs, the editor and set-program with content', async () => {
    await admin.goto('/led/ledDeviceManagement');
    await waitForPath(admin, '/led/ledDeviceManagement');
    await admin.getByTestId('area-view').getByText('Cards').click();
    const card = admin.locator(
      `[data-testid="area-device-card"][data-device-no="${screens[0]!.deviceNo}"]`,
    );
    await expect.poll(() => card.getByTestId('widget-ledScreen').count()).toBe(1);
    await expect.poll(() => card.getByTestId('led-showing').textContent()).toBe('nothing');
    // The card selected: the screen's controls beside the cards.
    await card.click();
    await expect.poll(() => admin.getByTestId('widget-ledControl').count()).toBe(1);

    await admin.goto('/led/ledProgramManagement');
    await waitForPath(admin, '/led/ledProgramManagement');
    const list = view(admin, '/led/ledProgramManagement');
    await expect.poll(() => list.getByText('东干渠水位公告').count()).toBeGreaterThan(0);
    await expect.poll(() => list.getByTestId('led-thumbnail').count()).toBeGreaterThan(1);

    await admin.goto('/led/ledEditProgram');
    await waitForPath(admin, '/led/ledEditProgram');
    const editor = view(admin, '/led/ledEditProgram');
    await expect.poll(() => editor.getByTestId('led-element').count()).toBeGreaterThan(1);
    await expect.poll(() => editor.getByTestId('led-preview').count()).toBe(1);

    await admin.goto('/led/setProgram');
    await waitForPath(admin, '/led/setProgram');
    const send = view(admin, '/led/setProgram');
    await expect.poll(() => send.getByText(screens[1]!.deviceName).count()).toBe(1);
  });

  it('edits a program on the canvas and sends it to two screens, which acknowledge it', async () => {
    const programNo = `E2E-${stamp}`;
    const added = await apiData<{ id: string | number }>(
      'POST',
      entityCalls(ledProgramEntity).add,
      { programNo, programName: `E2E notice ${stamp}`, width: 192, height: 96 },
    );
    const id = String(added.id);
    await admin.goto(`/led/ledEditProgram?id=${id}`);
    await waitForPath(admin, `/led/ledEditProgram?id=${id}`);
    const editor = view(admin, '/led/ledEditProgram');
    await editor.getByTestId('led-add-text').click();
    await editor.getByTestId('led-prop-text').fill('Canal open 08:00');
    // Dragged 10 screen pixels right and down on the canvas (3 CSS pixels each).
    const element = editor.locator('[data-testid="led-canvas"] [data-element="text1"]');
    await element.scrollIntoViewIfNeeded();
    const box = (await element.boundingBox())!;
    await admin.mouse.move(box.x + 5, box.y + 5);
    await admin.mouse.down();
    await admin.mouse.move(box.x + 20, box.y + 20, { steps: 4 });
    await admin.mouse.move(box.x + 35, box.y + 35, { steps: 4 });
    await admin.mouse.up();
    const saved = admin.waitForResponse((response) =>
      response.url().includes(LED_CALLS.saveContent),
    );
    await editor.getByTestId('led-save').click();
    expect((await saved).status()).toBe(200);
    const content = await apiData<LedProgramContent>('GET', `${LED_CALLS.content}?id=${id}`);
    expect(content.pages[0]!.elements).toEqual([
      expect.objectContaining({ type: 'text', text: 'Canal open 08:00', x: 10, y: 10 }),
    ]);

    await editor.getByTestId('led-editor-send').click();
    await waitForPath(admin, /^\/led\/setProgram\?programId=/);
    const page = view(admin, '/led/setProgram');
    for (const screen of screens)
      await page
        .locator('[data-testid="led-send-screens"] tr', { hasText: screen.deviceName })
        .locator('input[type="checkbox"]')
        .check();
    await page.getByTestId('led-send').click();
    for (const screen of screens)
      await expect
        .poll(
          () =>
            page
              .locator(`[data-testid="led-send-status"][data-device="${screen.deviceNo}"]`)
              .getByTestId('command-status')
              .getAttribute('data-status'),
          { timeout: 15_000 },
        )
        .toBe('succeeded');
    // The screens' cards say so (once the send's values are read again).
    await admin.goto('/led/ledDeviceManagement');
    await waitForPath(admin, '/led/ledDeviceManagement');
    await admin.getByTestId('area-view').getByText('Cards').click();
    await expect
      .poll(() =>
        admin
          .locator(`[data-testid="area-device-card"][data-device-no="${screens[0]!.deviceNo}"]`)
          .getByTestId('led-showing')
          .textContent(),
      )
      .toBe(`E2E notice ${stamp} (${programNo})`);
    // Both report showing it: the program list names them.
    const listed = await apiData<{ list: Array<{ screens: string | null }> }>(
      'GET',
      `${entityCalls(ledProgramEntity).query}?programNo=${programNo}`,
    );
    expect(listed.list[0]!.screens?.split(', ').sort()).toEqual(
      screens.map((screen) => screen.deviceName).sort(),
    );
  });
});
