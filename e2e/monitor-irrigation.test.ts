import {
  entityCalls,
  rotationScheduleEntity,
  valveGroupEntity,
  type CommandPayload,
} from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, signedIn, view, visibleOption } from './admin-console';
import { addDevice, apiData as apiDataOf, onlineDevice, type AddedDevice } from './field-devices';
import { DEMO_ADMIN, startConsole, type ConsoleRig } from '@shuili/test-support/console';

/**
 * Irrigation in Chromium against the real server: a valve controller made for this test is a
 * real MQTT client (its own credentials, over /mqtt) that acknowledges every command. A timed
 * open from its device page schedules the server's close (a second open for another duration is
 * refused, naming it); valve groups and rotation schedules are made on the configuration tabs,
 * and a group is opened as a batch.
 */

let rig: ConsoleRig;
let admin: Page;
const suffix = Date.now().toString(36);
let valve: AddedDevice;
let received: CommandPayload[] = [];
let client: MqttClient | undefined;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

/** A new valve controller of the seeded product, online over MQTT, acknowledging all. */
async function addValve(): Promise<AddedDevice> {
  const device = await addDevice(admin, {
    serialNo: 'IRR-VALVE-4',
    deviceNo: `IRR-E2E-${suffix}`,
    deviceName: `E2E valve ${suffix}`,
  });
  ({ client, received } = await onlineDevice(rig, admin, device));
  return device;
}

/**
 * Fills a command form of the device page's control tab (its inputs in the order of the
 * command's parameters), sends it and confirms.
 */
async function sendFromPage(command: string, values: string[]) {
  const commandForm = admin.getByTestId(`command-${command}`);
  for (const [index, value] of values.entries())
    await commandForm.locator('input').nth(index).fill(value);
  await admin.getByTestId(`command-${command}-send`).click();
  await admin.getByTestId('control-confirm-ok').click();
}

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
  valve = await addValve();
});

afterAll(async () => {
  await client?.endAsync(true);
  await rig?.close();
});

describe('irrigation', () => {
  it('opens a valve for a time from its page; a second open for another time is refused', async () => {
    await admin.goto('/irrigation/irrigationDevice');
    const list = view(admin, '/irrigation/irrigationDevice');
    await list.getByTestId('area-filter-text').locator('input').fill(valve.deviceNo);
    await list.getByTestId('area-device-link').filter({ hasText: valve.deviceName }).click();
    await admin.getByTestId('device-header').waitFor();
    await admin.getByRole('tab', { name: 'Control' }).click();
    await sendFromPage('openValve', ['2', '15']);
    await expect.poll(() => received.map((command) => command.name)).toContain('openValve');
    expect(received.at(-1)).toMatchObject({
      name: 'openValve',
      params: { channel: 2, durationMinutes: 15 },
    });
    await admin
      .getByTestId('sent-commands')
      .locator('[data-testid="command-status"][data-status="succeeded"]')
      .first()
      .waitFor();
    // The server closes it after 15 minutes: opening it for 5 now would cut that short.
    await sendFromPage('openValve', ['2', '5']);
    await admin.locator('.ant-message', { hasText: 'is already open for 15 min' }).waitFor();
    expect(received.filter((command) => command.name === 'openValve')).toHaveLength(1);
  });

  it('makes a valve group on the configuration screen and opens it as a batch', async () => {
    const groupName = `E2E group ${suffix}`;
    await admin.goto('/irrigation/irrigationMonitorConfiguration');
    const screen = view(admin, '/irrigation/irrigationMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Valve groups' }).click();
    await screen.getByTestId('resource-add').click();
    const dialog = form(admin);
    await dialog.locator('#form-ValveGroup_groupName').fill(groupName);
    const members = dialog.locator('#form-ValveGroup_members');
    await members.click();
    await members.fill(valve.deviceNo);
    await visibleOption(admin, `(${valve.deviceNo}) channel 1`).click();
    await members.fill(valve.deviceNo);
    await visibleOption(admin, `(${valve.deviceNo}) channel 2`).click();
    // Closes the options (they cover the dialog's buttons).
    await dialog.locator('#form-ValveGroup_groupName').click();
    await dialog.getByTestId('resource-form-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const row = screen.getByTestId('resource-table').locator('tr', { hasText: groupName });
    await row.getByText(`${valve.deviceName} #1, ${valve.deviceName} #2`).waitFor();
    const groups = await apiData<{ list: Array<{ groupName: string; members: string[] }> }>(
      'GET',
      `${entityCalls(valveGroupEntity).query}?groupName=${encodeURIComponent(groupName)}`,
    );
    expect(groups.list[0]!.members).toEqual([`${valve.id}:1`, `${valve.id}:2`]);

    // Channel 2 is open for 15 minutes already: the batch opens channel 1, refuses channel 2.
    await row.getByTestId('group-open').click();
    await admin.getByTestId('group-open-minutes').locator('input').fill('10');
    await admin.getByTestId('group-open-next').click();
    await admin.getByTestId('control-confirm-ok').click();
    const result = admin.getByTestId('batch-result');
    await result.waitFor();
    await admin.getByText('1 commands accepted, 1 refused').waitFor();
    await result.getByText('is already open for 15 min').waitFor();
    await expect
      .poll(() => received.filter((command) => command.name === 'openValve').at(-1)?.params)
      .toEqual({ channel: 1, durationMinutes: 10 });
  });

  it('makes a rotation schedule over the group with its start time', async () => {
    const groupName = `E2E group ${suffix}`;
    const scheduleName = `E2E rotation ${suffix}`;
    await admin.keyboard.press('Escape');
    await admin.goto('/irrigation/irrigationMonitorConfiguration');
    const screen = view(admin, '/irrigation/irrigationMonitorConfiguration');
    await screen.getByRole('tab', { name: 'Rotation schedules' }).click();
    await screen.getByTestId('resource-add').click();
    const dialog = form(admin);
    await dialog.locator('#form-RotationSchedule_scheduleName').fill(scheduleName);
    await dialog.getByTestId('rotation-step-add').click();
    await dialog.getByTestId('rotation-step-group').click();
    await visibleOption(admin, groupName).click();
    await dialog.getByTestId('rotation-step-minutes').locator('input').fill('25');
    await dialog.locator('#form-RotationSchedule_scheduleName').click();
    await dialog.locator('#form-RotationSchedule_startTime').fill('06:30');
    await dialog.getByTestId('resource-form-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const row = screen.getByTestId('resource-table').locator('tr', { hasText: scheduleName });
    await row.waitFor();
    const schedules = await apiData<{ list: Array<{ steps: string[]; nextRun: string }> }>(
      'GET',
      `${entityCalls(rotationScheduleEntity).query}?scheduleName=${encodeURIComponent(scheduleName)}`,
    );
    const groups = await apiData<{ list: Array<{ id: string }> }>(
      'GET',
      `${entityCalls(valveGroupEntity).query}?groupName=${encodeURIComponent(groupName)}`,
    );
    expect(schedules.list[0]!.steps).toEqual([`${groups.list[0]!.id}:25`]);
    // Its next run is at 06:30 on the tenant's clock (Asia/Shanghai).
    const shanghai = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Shanghai',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(shanghai.format(new Date(schedules.list[0]!.nextRun))).toBe('06:30');
    await row.getByTestId('rotation-runs').click();
    await admin.getByTestId('schedule-runs').waitFor();
  });
});
