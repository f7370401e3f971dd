import { entityCalls, TRACE_MAP_CALLS, traceAreaEntity, type TraceMap } from '@shuili/contract';
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
 * The digital map (/traceabilitySystem/digitalMap, issue 21 item 6) in Chromium: the demo's
 * bases, plots and devices drawn; a plot clicked shows its plantings and its devices' readings;
 * and a new plot's outline drawn on the plot form's map is saved as a polygon with its area.
 */
const MAP = '/traceabilitySystem/digitalMap';
const AREAS = '/traceabilitySystem/area';
const PLOT_NAME = `地图测试地块 ${Date.now() % 100_000}`;

let rig: ConsoleRig;
let admin: Page;

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN, 'zh-CN');
  await admin.setViewportSize({ width: 1280, height: 800 });
});

afterAll(async () => {
  await rig?.close();
});

it('draws the demo bases, plots and devices; a plot clicked shows its plantings and readings', async () => {
  const answered = admin.waitForResponse((response) =>
    response.url().includes(TRACE_MAP_CALLS.query),
  );
  await admin.goto(MAP);
  const map = ((await (await answered).json()) as { data: TraceMap }).data;
  const canvas = admin.getByTestId('trace-map-canvas');
  await canvas.waitFor();
  // Every located base, outlined plot and located device is on the map.
  await expect.poll(() => admin.locator('.trace-map-plot').count()).toBeGreaterThanOrEqual(4);
  expect(await admin.locator('.trace-map-plot').count()).toBe(
    map.plots.filter((plot) => plot.ring).length,
  );
  expect(await admin.locator('.trace-map-base').count()).toBeGreaterThanOrEqual(2);
  expect(await admin.locator('.trace-map-device').count()).toBeGreaterThan(0);
  expect(await admin.locator('.trace-map-device').count()).toBe(
    map.devices.filter((device) => device.lat !== null && device.lng !== null).length,
  );

  // A plot with a planting and a device that has reported.
  const plot = map.plots.find(
    (one) =>
      one.ring &&
      one.plantings.length > 0 &&
      one.deviceIds.some(
        (id) => Object.keys(map.devices.find((d) => d.id === id)?.values ?? {}).length > 0,
      ),
  )!;
  expect(plot).toBeDefined();
  // A base clicked brings its plots closer: the plot grows on the screen.
  const width = async () =>
    (await admin.locator(`.trace-map-plot-${plot.id}`).boundingBox())!.width;
  const far = await width();
  await admin.locator(`.trace-map-base-${plot.baseId}`).click();
  await expect.poll(width).toBeGreaterThan(far * 4);
  await admin.locator(`.trace-map-plot-${plot.id}`).click();
  const panel = admin.locator(`[data-testid="trace-map-panel"][data-plot="${plot.id}"]`);
  await panel.waitFor();
  expect(await panel.getByTestId('trace-map-planting').count()).toBe(plot.plantings.length);
  await panel.getByText(plot.plantings[0]!.variety).first().waitFor();
  expect(await panel.getByTestId('trace-map-device').count()).toBe(plot.deviceIds.length);
  expect(await panel.getByTestId('trace-map-reading').count()).toBeGreaterThan(0);
  // A reading carries its unit when its property has one.
  const device = map.devices.find(
    (d) => plot.deviceIds.includes(d.id) && Object.keys(d.values).length > 0,
  )!;
  const withUnit = device.thingModel.properties.find(
    (property) => property.unit && device.values[property.key] != null,
  );
  if (withUnit)
    expect(
      await panel
        .locator(`[data-testid="trace-map-reading"][data-key="${withUnit.key}"]`)
        .textContent(),
    ).toMatch(/\d/);
});

it('saves the outline drawn for a new plot, its area in mu shown and stored', async () => {
  await admin.goto(AREAS);
  const list = view(admin, AREAS);
  await list.getByTestId('resource-add').click();
  const dialog = form(admin);
  await dialog.locator('#form-TraceArea_areaName').fill(PLOT_NAME);
  await chooseOption(
    admin,
    dialog.locator('.ant-select', { has: admin.locator('#form-TraceArea_baseId') }),
    '东庄粮菜基地',
  );
  const editor = dialog.getByTestId('trace-outline-editor');
  const drawing = dialog.getByTestId('trace-outline-canvas');
  await drawing.scrollIntoViewIfNeeded();
  // The map opens on the chosen base.
  await expect.poll(() => editor.getAttribute('data-view')).toBe('base');
  // The map opens on the base (its tiles or not): four corners of a square, clicked.
  const box = (await drawing.boundingBox())!;
  const corners: Array<[number, number]> = [
    [0.3, 0.3],
    [0.7, 0.3],
    [0.7, 0.7],
    [0.3, 0.7],
  ];
  for (const [x, y] of corners) {
    await admin.mouse.click(box.x + box.width * x, box.y + box.height * y);
  }
  await expect.poll(() => editor.getAttribute('data-vertices')).toBe('4');
  // A corner clicked is removed, and clicked back in.
  await dialog.locator('.trace-outline-vertex').nth(3).click();
  await expect.poll(() => editor.getAttribute('data-vertices')).toBe('3');
  await admin.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.7);
  await expect.poll(() => editor.getAttribute('data-vertices')).toBe('4');
  const area = dialog.getByTestId('trace-outline-area');
  const before = Number(await area.getAttribute('data-mu'));
  expect(before).toBeGreaterThan(0);
  // A corner dragged outwards: the outline grows, and so does its area.
  const corner = (await dialog.locator('.trace-outline-vertex').nth(2).boundingBox())!;
  await admin.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await admin.mouse.down();
  await admin.mouse.move(box.x + box.width * 0.85, box.y + box.height * 0.85, { steps: 8 });
  await admin.mouse.up();
  await expect.poll(async () => Number(await area.getAttribute('data-mu'))).toBeGreaterThan(before);
  expect(await editor.getAttribute('data-vertices')).toBe('4');
  const shown = Number(await area.getAttribute('data-mu'));
  // The form's area follows the outline.
  expect(Number(await dialog.locator('#form-TraceArea_areaMu').inputValue())).toBeCloseTo(shown, 2);
  await area.getByText(String(shown)).waitFor();

  const saved = admin.waitForResponse(
    (response) => response.url().includes(entityCalls(traceAreaEntity).add) && response.ok(),
  );
  await dialog.getByTestId('resource-form-submit').click();
  await saved;
  const { body } = await api(admin, 'GET', `${entityCalls(traceAreaEntity).query}?pageSize=1000`);
  const row = (body.data.list as Array<{ areaName: string; polygon: string; areaMu: number }>).find(
    (one) => one.areaName === PLOT_NAME,
  )!;
  const polygon = JSON.parse(row.polygon) as { type: string; coordinates: number[][][] };
  expect(polygon.type).toBe('Polygon');
  expect(polygon.coordinates[0]).toHaveLength(5);
  expect(row.areaMu).toBeCloseTo(shown, 1);
});
