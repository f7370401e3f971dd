import { entityCalls, INSECT_CALLS, insectSpeciesEntity, type PageResult } from '@shuili/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseOption,
  DEMO_ADMIN,
  startConsole,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { form, signedIn, view } from './admin-console';
import { apiData as apiDataOf } from './field-devices';

/**
 * The insect situation area in Chromium (issue 19 item 6), on the demo's seeded traps, tray
 * photos and species catalogue: the trap card shows its lamp, counts and newest photo; the
 * gallery shows the day's photos, one opens large and is labelled with a species' count, which
 * the day's sums then show; the catalogue lists the species with their pictures, a new species
 * is created and given a picture, and a species opens with its hints and advice.
 */

const DEVICES = '/insectSituationMonitor/insectDeviceList';
const CATALOGUE = '/insectSituationMonitor/insectImageIntroduction';
const TRAP = 'INSECT-LAMP-01';
const SPECIES = entityCalls(insectSpeciesEntity);
/** A species of this run only, so it is counted on no photo yet. */
const NEW_SPECIES = `测试夜蛾${Date.now() % 100_000}`;

let rig: ConsoleRig;
let admin: Page;

const apiData = <T>(method: string, url: string, body?: unknown) =>
  apiDataOf<T>(admin, method, url, body);

/** Waits until one of the images has decoded a real picture (not a broken one). */
const decoded = (images: Locator) =>
  expect
    .poll(
      () =>
        images.evaluateAll((nodes) =>
          nodes.some((node) => {
            const img = node as HTMLImageElement;
            return img.complete && img.naturalWidth > 0;
          }),
        ),
      { timeout: 20_000 },
    )
    .toBe(true);

beforeAll(async () => {
  rig = await startConsole();
  admin = await signedIn(rig, DEMO_ADMIN);
});

afterAll(async () => {
  await rig?.close();
});

describe('the species catalogue', () => {
  it('lists the pests with their pictures; a species is created and given a picture', async () => {
    await admin.goto(CATALOGUE);
    const page = view(admin, CATALOGUE);
    await page.getByTestId('resource-table').getByText('Spodoptera frugiperda').waitFor();
    await decoded(page.locator('img[data-testid="species-picture"]'));

    await page.getByTestId('resource-add').click();
    await form(admin).locator('#form-InsectSpecies_nameZh').fill(NEW_SPECIES);
    await form(admin).locator('#form-InsectSpecies_nameLatin').fill('Spodoptera testis');
    await chooseOption(
      admin,
      form(admin).locator('.ant-select', { has: admin.locator('#form-InsectSpecies_insectOrder') }),
      'Lepidoptera',
    );
    // Typing in the next field closes the dropdown.
    await form(admin).locator('#form-InsectSpecies_hostCrops').fill('玉米');
    await form(admin).locator('#form-InsectSpecies_hintsEn').fill('Grey forewings, white spot');
    await form(admin).getByTestId('resource-form-submit').click();
    await form(admin)
      .waitFor({ state: 'hidden' })
      .catch(async (error: unknown) => {
        await admin.screenshot({ path: '/tmp/insect-form.png' });
        throw error;
      });

    // The picture: a seeded species' own bytes, uploaded from the new row's action.
    const seeded = await apiData<PageResult<Record<string, unknown>>>(
      'GET',
      `${SPECIES.query}?nameZh=${encodeURIComponent('棉铃虫')}`,
    );
    const picture = await admin.request.post(
      `${INSECT_CALLS.speciesPicture}?id=${String(seeded.list[0]!.id)}`,
      { headers: { authorization: `Bearer ${await token()}` } },
    );
    expect(picture.status()).toBe(200);
    const row = page.locator('tr', { hasText: NEW_SPECIES });
    await row.locator('input[type="file"]').setInputFiles({
      name: 'moth.png',
      mimeType: 'image/png',
      buffer: await picture.body(),
    });
    await decoded(row.locator('img'));

    // A row opens its leaflet in the reader's language.
    await row.getByText('Spodoptera testis').click();
    const detail = admin.getByTestId('species-detail');
    await expect
      .poll(() => detail.getByTestId('species-hints').textContent())
      .toBe('Grey forewings, white spot');
    await decoded(detail.locator('img'));
    await admin.keyboard.press('Escape');
  });
});

describe('the trap card and its gallery', () => {
  it('shows the lamp, counts and newest photo; a photo is labelled with a species count', async () => {
    await admin.goto(DEVICES);
    const list = view(admin, DEVICES);
    await list.getByTestId('area-view').getByText('Cards').click();
    const card = list.locator(`[data-testid="area-device-card"][data-device-no="${TRAP}"]`);
    const widget = card.getByTestId('widget-insectTrap');
    await widget.getByTestId('insect-lamp').waitFor();
    await decoded(widget.locator('img[data-testid="insect-latest-photo"]'));

    await widget.click();
    const panels = admin.locator(`[data-testid="area-panels"][data-device-no="${TRAP}"]`);
    const gallery = panels.getByTestId('widget-insectGallery');
    const photos = gallery.getByTestId('gallery-photo');
    await photos.first().waitFor();
    await decoded(photos.locator('img'));

    await photos.last().click();
    const large = admin.getByTestId('photo-large');
    await decoded(large.locator('img'));
    await chooseOption(admin, large.getByTestId('label-species'), NEW_SPECIES, {
      search: NEW_SPECIES,
    });
    await large.getByTestId('label-count').fill('6');
    await large.getByTestId('label-add').click();
    await large.locator(`[data-testid="photo-label"][data-species="${NEW_SPECIES}"]`).waitFor();
    await admin.keyboard.press('Escape');

    // The day's sums per species count it.
    await expect
      .poll(() =>
        gallery
          .locator(`[data-testid="species-total"][data-species="${NEW_SPECIES}"]`)
          .textContent(),
      )
      .toMatch(/× 6$/);
  });
});

/** The access token the page holds. */
async function token(): Promise<string> {
  return (await admin.context().cookies()).find((cookie) => cookie.name === 'token')!.value;
}
