import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  signIn,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  // Access tokens that expire almost at once, so the refresh path runs.
  rig = await startConsole({ config: { accessTokenSeconds: 2 } });
});

afterAll(async () => {
  await rig?.close();
});

it('refreshes an expired access token once and carries on', async () => {
  const { page, context } = await rig.newPage();
  await page.goto('/login');
  await signIn(page, DEMO_ADMIN);
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
  const before = (await context.cookies()).find((cookie) => cookie.name === 'token')?.value;

  await page.waitForTimeout(3_000);
  const refreshes: number[] = [];
  page.on('response', (response) => {
    // The console sends the token call's parameters as a form body.
    const request = response.request();
    if (
      response.url().includes('/api/uaa/oauth/token') &&
      request.postData()?.includes('grant_type=refresh_token')
    )
      refreshes.push(response.status());
  });
  await page.reload();
  await page.getByTestId('workbench').waitFor();

  expect(refreshes).toEqual([200]);
  const after = (await context.cookies()).find((cookie) => cookie.name === 'token')?.value;
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
  expect(await page.locator('.ant-message-error').count()).toBe(0);
});
