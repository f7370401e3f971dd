import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  signIn,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

/** A call every console page makes on its own as it loads: the bell's head notifications. */
const HEAD = '**/api/notification/notification/queryHeadNotification';

async function signedIn() {
  const opened = await rig.newPage();
  await opened.page.goto('/login');
  await signIn(opened.page, DEMO_ADMIN);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

/** Reloads with the bell's call answered once by `answer`, as the network would. */
async function reloadAnswering(page: Page, answer: (route: Route) => Promise<void>) {
  await page.route(HEAD, answer, { times: 1 });
  await page.reload();
  await page.getByTestId('workbench').waitFor();
}

const json = (status: number, body: unknown) => (route: Route) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

function toast(page: Page, text: string) {
  return page.locator('.ant-message-error', { hasText: text });
}

describe('spec §8 error rules, answered in the browser’s network layer', () => {
  it('says what an HTTP status means', async () => {
    const { page } = await signedIn();
    const cases: [number, unknown, string][] = [
      [500, { code: 500, message: 'boom' }, 'The server is being upgraded, please try again later'],
      [503, {}, 'The server is being upgraded, please try again later'],
      [404, { code: 404, message: 'no route' }, 'Network error'],
      [401, { error: 'invalid_token', code: 401 }, 'Login expired, log in again'],
      [401, { error: 'unauthorized', code: 401 }, 'No permission'],
      [409, { code: 409, message: 'The valve is already open' }, 'The valve is already open'],
    ];
    for (const [status, body, text] of cases) {
      await reloadAnswering(page, json(status, body));
      await toast(page, text).waitFor();
    }
  });

  it('shows the body message of a code other than 200 for five seconds, else "Error"', async () => {
    const { page } = await signedIn();
    await reloadAnswering(page, json(200, { code: 1234, message: 'Pump 7 is offline' }));
    const message = toast(page, 'Pump 7 is offline');
    await message.waitFor();
    const shown = Date.now();
    await message.waitFor({ state: 'detached', timeout: 10_000 });
    const seconds = (Date.now() - shown) / 1000;
    expect(seconds).toBeGreaterThan(4);
    expect(seconds).toBeLessThan(7);

    await reloadAnswering(page, json(200, { code: 1234 }));
    await page.locator('.ant-message-error', { hasText: /^Error$/ }).waitFor();
  });

  it('asks to log in again for code 50008: Cancel stays, Re-Login signs out and reloads', async () => {
    const { page, context } = await signedIn();
    const ended = json(200, { code: 50008, message: 'Your session has ended' });
    await reloadAnswering(page, ended);
    await toast(page, 'Your session has ended').waitFor();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.locator('text=You have been logged out').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/home/workbench');

    await reloadAnswering(page, ended);
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await waitForPath(page, /^\/login/);
    expect((await context.cookies()).some((cookie) => cookie.name === 'token')).toBe(false);
  });
});

describe('error log', () => {
  it('lists uncaught errors and rejections in production, with message, info, url and stack', async () => {
    const { page } = await signedIn();
    expect(await page.getByTestId('error-log-button').count()).toBe(0);

    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('Valve 3 is stuck');
      });
      void Promise.reject(new Error('Gate sensor lost'));
    });
    await page.getByTestId('error-log-button').click();
    const table = page.getByTestId('error-log-table');
    await table.getByText('Valve 3 is stuck', { exact: true }).waitFor();
    await table.getByText('Gate sensor lost', { exact: true }).waitFor();
    const text = await table.innerText();
    expect(text).toContain('window error');
    expect(text).toContain('unhandled rejection');
    expect(text).toContain('/home/workbench');
    expect(text).toMatch(/Error: Valve 3 is stuck\s+at /);

    await page.getByTestId('error-log-clear').click();
    await page
      .getByTestId('error-log-button')
      .waitFor({ state: 'detached', timeout: 8000 })
      .catch(async (error: unknown) => {
        // Something else was logged after clearing: say what, rather than just time out.
        await page.getByTestId('error-log-button').click();
        throw new Error(`still logged after clearing: ${await table.innerText()}`, {
          cause: error,
        });
      });
  });

  it('keeps a screen that cannot load from taking the shell down, logs it, and reloads it', async () => {
    const { page } = await signedIn();
    const chunk = /\/assets\/MyNotificationPage-[^/]*\.js$/;
    await page.route(chunk, (route) => route.abort());
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-view-all').click();
    await waitForPath(page, '/mynotification');

    // The shell stays; the screen says what happened and offers a reload (the root view's).
    await page.getByTestId('view-reload').waitFor();
    await page.getByTestId('navbar-user').waitFor();
    await page.getByTestId('error-log-button').waitFor();

    await page.unroute(chunk);
    await page.getByTestId('view-reload').click();
    await page.getByTestId('my-notification').waitFor();
  });
});
