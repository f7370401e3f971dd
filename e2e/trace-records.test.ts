import {
  entityCalls,
  traceFarmworkEntity,
  traceHarvestEntity,
  tracePlantingEntity,
} from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  chooseOption,
  DEMO_ADMIN,
  startConsole,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { api, form, signedIn, view } from './admin-console';

/**
 * Traceability's rules as an operator meets them on the entity screens (issue 21 item 3): a
 * harvest typed on /traceabilitySystem/harvest before the pre-harvest interval of the plot's
 * last spraying has passed is refused in the form, naming the product and the day harvesting
 * becomes allowed, and nothing is saved.
 */
const HARVESTS = '/traceabilitySystem/harvest';
const PRODUCT = `E2E吡虫啉${Date.now() % 100_000}`;

let rig: ConsoleRig;
let admin: Page;

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
});

afterAll(async () => {
  await rig?.close();
});

it('refuses a harvest before the pre-harvest interval, naming the product and the allowed day', async () => {
  // The demo's wheat of this season is still growing; it is sprayed yesterday, 14 days to wait.
  const plantings = await api(
    admin,
    'GET',
    `${entityCalls(tracePlantingEntity).query}?state=growing`,
  );
  const planting = (plantings.body.data.list as Array<{ id: string; plantingCode: string }>)[0];
  expect(planting, 'the demo has a growing planting').toBeDefined();
  const yesterday = new Date(Date.now() - 86_400_000);
  const sprayed = await api(admin, 'POST', entityCalls(traceFarmworkEntity).add, {
    plantingId: planting!.id,
    workType: 'spraying',
    product: PRODUCT,
    dose: 20,
    doseUnit: 'g/亩',
    doneAt: yesterday.toISOString(),
    phiDays: 14,
  });
  expect(sprayed.status).toBe(200);
  const before = await api(admin, 'GET', `${entityCalls(traceHarvestEntity).query}`);

  await admin.goto(HARVESTS);
  const page = view(admin, HARVESTS);
  await page.getByTestId('resource-table').waitFor();
  await page.getByTestId('resource-add').click();
  const dialog = form(admin);
  await chooseOption(
    admin,
    dialog.locator('.ant-select', { has: admin.locator('#form-TraceHarvest_plantingId') }),
    planting!.plantingCode,
    { search: planting!.plantingCode },
  );
  const harvestedAt = dialog.locator('#form-TraceHarvest_harvestedAt');
  await harvestedAt.click();
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  await harvestedAt.fill(
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:00:00`,
  );
  await harvestedAt.press('Enter');
  await dialog.locator('#form-TraceHarvest_quantity').fill('500');
  const save = dialog.getByTestId('resource-form-submit');
  if (await save.isVisible()) await save.click();

  // Named on the harvest time (and on the planting, the other half of the rule).
  const refusal = dialog
    .locator('.ant-form-item-explain-error', { hasText: PRODUCT })
    .filter({ hasText: 'Harvested at' });
  await refusal.waitFor();
  expect(await refusal.innerText()).toContain('harvesting is allowed from');
  // Nothing was saved.
  const after = await api(admin, 'GET', `${entityCalls(traceHarvestEntity).query}`);
  expect(after.body.data.total).toBe(before.body.data.total);
});
