import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  readCode,
  startConsole,
  tenantSelect,
  waitForPath,
  waitForTitle,
  wrongCode,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

const errorText = (page: Page, text: string) =>
  page.locator('.ant-form-item-explain-error', { hasText: text });

it('registers a new tenant with an SMS code, then signs its administrator in', async () => {
  const { page } = await rig.newPage();
  await page.goto('/register');
  await waitForTitle(page, 'Register - Smart IoT Management System');

  await page.locator('#register_tenantName').fill('Lakeside District');
  await page.locator('#register_username').fill('lakeadmin');
  await page.locator('#register_password').fill('lake pass 1');
  await page.locator('#register_confirmPassword').fill('lake pass 2');
  await page.locator('#register_email').fill('lake@example.com');
  await page.locator('#register_mobile').fill('13900001111');
  await page.locator('button[type=submit]').click();
  // The form's own rules catch these before the server is asked.
  await errorText(page, 'The two passwords do not match').waitFor();
  await errorText(page, 'with its country code').waitFor();

  await page.locator('#register_confirmPassword').fill('lake pass 1');
  await page.locator('#register_mobile').fill('+86 13900001111');
  const sent = page.waitForResponse((response) => response.url().includes('/getSmsCaptcha'));
  await page.getByTestId('send-sms').click();
  expect((await sent).status()).toBe(200);
  await page.getByTestId('send-sms').locator('text=/Resend in \\d+ s/').waitFor();
  const code = await readCode(rig.server, '+8613900001111');

  // A wrong code: the server names the field, and the form shows it there.
  await page.locator('#register_smsCaptcha').fill(wrongCode(code));
  await page.locator('button[type=submit]').click();
  await errorText(page, 'The verification code is wrong or has expired').waitFor();

  await page.locator('#register_smsCaptcha').fill(code);
  await page.locator('#register_nickname').fill('Lake admin');
  await page.locator('button[type=submit]').click();
  const tenantCode = (await page.getByTestId('registered-tenant-code').innerText()).trim();
  expect(tenantCode).toMatch(/^[a-z][a-z0-9_-]+$/);

  await page.getByTestId('registered-sign-in').click();
  await waitForPath(page, /^\/login\?/);
  // The sign-in form arrives filled: account and, through the look-up, the new tenant.
  expect(await page.locator('#login_username').inputValue()).toBe('lakeadmin');
  await tenantSelect(page)
    .locator('.ant-select-content', { hasText: `Lakeside District (${tenantCode})` })
    .waitFor();
  // Passwords are sent as typed, spaces and all.
  await page.locator('#login_password').fill('lake pass 1');
  await page.locator('button[type=submit]').click();

  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
  expect((await page.getByTestId('tenant-name').innerText()).trim()).toBe('Lakeside District');
  expect((await page.getByTestId('tenant-code').innerText()).trim()).toBe(tenantCode);
  expect((await page.getByTestId('user-nickname').innerText()).trim()).toBe('Lake admin');
  expect((await page.getByTestId('user-roles').innerText()).trim()).toBe('ROLE_ADMIN');
});
