import type { Locator, Page } from 'playwright-core';
import {
  signIn,
  waitForPath,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';

/** Helpers of the administration screens' browser tests (entity screens, grants, API). */

export const PLATFORM_ADMIN: Credentials = {
  tenantCode: 'platform',
  username: 'admin',
  password: 'admin123',
};

/** A fresh browser signed in as `who`, on the workbench. */
export async function signedIn(rig: ConsoleRig, who: Credentials, locale?: string): Promise<Page> {
  const { page } = await rig.newPage(locale);
  await page.goto('/login');
  await signIn(page, who);
  await waitForPath(page, '/home/workbench');
  return page;
}

/** The kept-alive view of a route (the tags view keeps several mounted). */
export const view = (page: Page, path: string) => page.locator(`[data-view="${path}"]`);

/** The open entity form (create or edit dialog). */
export const form = (page: Page) => page.getByTestId('resource-form');

/** An option of the select dropdown that is open now. */
export const visibleOption = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text });

/** Calls the API with the token the page holds (the cookie the console keeps it in). */
export async function api(page: Page, method: string, url: string, body?: unknown) {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value;
  const response = await page.request.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status(), body: await response.json() };
}

/** Ids of the rows of an entity query whose field equals one of the values. */
export async function idsWhere(page: Page, url: string, field: string, values: string[]) {
  const { body } = await api(page, 'GET', `${url}?pageSize=10000`);
  return (body.data.list as Array<Record<string, string>>)
    .filter((row) => values.includes(row[field]!))
    .map((row) => row.id!);
}

/** The labels of the sidebar's menu items, submenus opened. */
export async function sidebarLabels(page: Page): Promise<string[]> {
  const sidebar = page.getByTestId('sidebar');
  const closed = sidebar.locator('.ant-menu-submenu-title[aria-expanded="false"]');
  // A click toggles: a submenu the console opened itself between a look and a click (the current
  // route's ancestors) closed again, and its items were missing. So open the first closed one and
  // look again, until none is closed (nested ones included).
  for (let clicks = 0; clicks < 100 && (await closed.count()) > 0; clicks++)
    await closed.first().click();
  const labels = await sidebar.locator('.ant-menu-title-content').allInnerTexts();
  return labels.map((text) => text.trim()).filter(Boolean);
}

/**
 * Submits an entity form whose last field took Enter: Enter usually submits it too, but on a
 * loaded machine it sometimes only took the field's value, so the save button is pressed when
 * the form is still open a moment later (never while a save is under way).
 */
export async function submitUnlessGone(dialog: Locator): Promise<void> {
  const gone = await dialog
    .waitFor({ state: 'detached', timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (gone) return;
  const save = dialog.getByTestId('resource-form-submit');
  if (await save.isEnabled()) await save.click({ timeout: 5_000 }).catch(() => undefined);
  await dialog.waitFor({ state: 'detached' });
}
