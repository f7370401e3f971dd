import { AREA_SETTING_CALLS, deviceTopic, FERTIGATION_CALLS } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, signedIn, view, visibleOption } from './admin-console';
import {
  addDevice,
  apiData as apiDataOf,
  onlineDevice,
  type AddedDevice,
  type AnsweringDevice,
} from './field-devices';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The areas' rules in Chromium against the real server: a pump station and a fertigation machine
 * made for this test are real MQTT clients (their own credentials, over /mqtt) that acknowledge
 * every command; the pump station's forebay is low, so the dry-run interlock refuses a start and
 * the page says why.
 */

let rig: ConsoleRig;
let admin: Page;
const clients: MqttClient[] = [];
const suffix = Date.now().toString(36);

interface Machine extends AddedDevice, AnsweringDevice {}
let pump: Machine;
let fertigation: Machine;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

/** A new device of a seeded product, connected as a real MQTT client that acknowledges all. */
async function addMachine(serialNo: string, name: string): Promise<Machine> {
  const device = await addDevice(admin, {
    serialNo,
    deviceNo: `${serialNo}-${suffix}`,
    deviceName: `${name} ${suffix}`,
  });
  const online = await onlineDevice(rig, admin, device);
  clients.push(online.client);
  return { ...device, ...online };
}

/** The forebay level the station reports (stored when the QoS 1 publish returns). */
const forebay = (level: number) =>
  pump.client.publishAsync(
    deviceTopic('demo', pump.deviceNo, 'telemetry'),
    JSON.stringify({ values: { forebayLevel: level } }),
    { qos: 1 },
  );

/**
 * Fills a command form of the device page's control tab (its parameters' values in their
 * order), sends it and confirms.
 */
async function sendFromPage(command: string, values: string[]) {
  const items = admin.getByTestId(`command-${command}`).locator('.ant-form-item');
  for (const [index, value] of values.entries())
    await items.nth(index).locator('input').fill(value);
  await admin.getByTestId(`command-${command}-send`).click();
  await admin.getByTestId('control-confirm-ok').click();
}

/** Saves the open entity form; a refusal fails the test with what the form says. */
async function submitForm() {
  const dialog = form(admin);
  await dialog.getByTestId('resource-form-submit').click();
  const errors = dialog.locator('.ant-form-item-explain-error');
  await Promise.race([dialog.waitFor({ state: 'detached' }), errors.first().waitFor()]);
  if ((await dialog.count()) > 0)
    throw new Error(`form refused: ${(await errors.allInnerTexts()).join('; ')}`);
}

/** The station's own page, reached from the pump station device list as an operator does. */
async function openStationFromList() {
  await admin.goto('/pumpStation/pumpDevice');
  const list = view(admin, '/pumpStation/pumpDevice');
  await list.getByTestId('area-filter-text').locator('input').fill(pump.deviceNo);
  await list.getByTestId('area-device-link').filter({ hasText: pump.deviceName }).click();
  await admin.getByTestId('device-header').waitFor();
  await admin.getByRole('tab', { name: 'Control' }).click();
  await admin.getByTestId('command-startPump').waitFor();
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  pump = await addMachine('PUMP-VFD-2', 'E2E pump station');
  fertigation = await addMachine('FERT-4CH', 'E2E fertigation machine');
  // The forebay at 0.4 m, below the area's default dry-run level of 1 m.
  await forebay(0.4);
});

afterAll(async () => {
  for (const client of clients) await client.endAsync(true);
  await rig?.close();
});

describe('pump stations', () => {
  it('refuses a start while the forebay is below the dry-run level, and says why', async () => {
    await openStationFromList();
    await sendFromPage('startPump', ['1']);
    await admin
      .locator('.ant-message', {
        hasText: 'Pump not started: the forebay level 0.4 m is below the dry-run level 1 m',
      })
      .waitFor();
    const records = await apiData<{ list: Array<{ name: string }> }>(
      'GET',
      `/api/iot/command/queryCommand?deviceId=${pump.id}`,
    );
    expect(records.list.map((record) => record.name)).not.toContain('startPump');
    expect(pump.received.map((command) => command.name)).not.toContain('startPump');
  });

  it('sets a frequency that the station receives and acknowledges', async () => {
    await sendFromPage('setFrequency', ['1', '42']);
    await expect.poll(() => pump.received.map((command) => command.name)).toEqual(['setFrequency']);
    await admin
      .getByTestId('sent-commands')
      .locator('[data-testid="command-status"][data-status="succeeded"]')
      .first()
      .waitFor();
    expect(pump.received.at(-1)).toMatchObject({
      name: 'setFrequency',
      params: { pumpNo: 1, frequency: 42 },
    });
  });

  it("saves the station's dry-run level on the configuration screen; a start then goes through", async () => {
    await admin.goto('/pumpStation/pumpMonitorConfiguration');
    const screen = view(admin, '/pumpStation/pumpMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Automation settings' }).click();
    await screen.getByTestId('settings-device').click();
    await visibleOption(admin, pump.deviceNo).click();
    const level = screen.getByTestId('settings-form').locator('input[id$="dryRunLevel"]');
    await level.fill('0.35');
    await screen.getByTestId('settings-save').click();
    await admin.locator('.ant-message', { hasText: 'Settings saved' }).waitFor();
    const saved = await apiData<{
      list: Array<{ values: { dryRunLevel: number }; own: string[] }>;
    }>('GET', `${AREA_SETTING_CALLS.query}?area=pumpStation&deviceId=${pump.id}`);
    expect(saved.list[0]).toMatchObject({ values: { dryRunLevel: 0.35 }, own: ['dryRunLevel'] });

    // 0.4 m is above 0.35 m now: the same start reaches the pump.
    await forebay(0.4);
    await openStationFromList();
    await sendFromPage('startPump', ['1']);
    await expect.poll(() => pump.received.map((command) => command.name)).toContain('startPump');
  });
});

describe('water and fertilizer configuration', () => {
  const recipeName = `Cucumber flowering ${suffix}`;
  const programName = `Greenhouse 2 ${suffix}`;

  it('adds a recipe on the recipes tab', async () => {
    await admin.goto('/waterFertilizer/waterFertilizerMonitorConfiguration');
    const screen = view(admin, '/waterFertilizer/waterFertilizerMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Fertilizer recipes' }).click();
    await screen.getByTestId('resource-add').click();
    const dialog = form(admin);
    await dialog.locator('#form-FertilizerRecipe_recipeName').fill(recipeName);
    await dialog.locator('#form-FertilizerRecipe_crop').fill('Cucumber');
    await dialog.locator('#form-FertilizerRecipe_stage').click();
    await visibleOption(admin, 'Flowering').click();
    await dialog.locator('#form-FertilizerRecipe_targetEc').fill('2.4');
    await dialog.locator('#form-FertilizerRecipe_targetPh').fill('6.1');
    await submitForm();
    await screen.getByTestId('resource-table').getByText(recipeName).waitFor();
  });

  it('adds a program for a fertigation machine, runs it, watches its steps and stops it', async () => {
    const screen = view(admin, '/waterFertilizer/waterFertilizerMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Fertigation programs' }).click();
    await screen.getByTestId('resource-add').click();
    const dialog = form(admin);
    await dialog.locator('#form-FertigationProgram_programName').fill(programName);
    // The machine field offers the area's machines only: the pump station is not among them.
    await dialog.locator('#form-FertigationProgram_deviceId').click();
    await visibleOption(admin, fertigation.deviceNo).waitFor();
    expect(await visibleOption(admin, pump.deviceNo).count()).toBe(0);
    await visibleOption(admin, fertigation.deviceNo).click();
    await dialog.locator('#form-FertigationProgram_groupNo').fill('2');
    await dialog.locator('#form-FertigationProgram_recipeId').fill(recipeName.slice(0, 8));
    await visibleOption(admin, recipeName).click();
    await dialog.locator('#form-FertigationProgram_waterBeforeMinutes').fill('5');
    await dialog.locator('#form-FertigationProgram_fertilizerMinutes').fill('20');
    await dialog.locator('#form-FertigationProgram_waterAfterMinutes').fill('5');
    await submitForm();
    const row = screen.getByTestId('resource-table').locator('tr', { hasText: programName });

    await row.getByTestId('program-start').click();
    const runs = admin.getByTestId('fertigation-runs');
    // The machine acknowledges setRecipe and startProgram: the run watches the fertilizer.
    await runs.getByTestId('run-status').filter({ hasText: 'Running · water before' }).waitFor();
    expect(fertigation.received.map((command) => command.name)).toEqual([
      'setRecipe',
      'startProgram',
    ]);
    expect(fertigation.received[1]!.params).toEqual({
      group: 2,
      waterBeforeMinutes: 5,
      fertilizerMinutes: 20,
      waterAfterMinutes: 5,
    });
    await runs.locator('.ant-table-row-expand-icon').first().click();
    await expect
      .poll(() => runs.locator('[data-testid="command-status"][data-status="succeeded"]').count())
      .toBe(2);
    await runs.locator('.ant-drawer-close').click();

    await row.getByTestId('program-stop').click();
    await runs.getByTestId('run-status').filter({ hasText: 'Stopped by hand' }).waitFor();
    await runs.getByText('Stopped by admin').waitFor();
    await expect.poll(() => fertigation.received.at(-1)?.name).toBe('stopProgram');
    const history = await apiData<{ list: Array<{ status: string }> }>(
      'GET',
      `${FERTIGATION_CALLS.runs}?deviceId=${fertigation.id}`,
    );
    expect(history.list.map((run) => run.status)).toEqual(['stopped']);
  });
});
