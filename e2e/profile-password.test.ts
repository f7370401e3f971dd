import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_OPERATOR,
  signIn,
  startConsole,
  waitForPath,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

const NEW_PASSWORD = 'canal-2024 pass';

async function signedIn(who: Credentials) {
  const opened = await rig.newPage();
  await opened.page.goto('/login');
  await signIn(opened.page, who);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

const input = (page: Page, name: string) => page.locator(`#changePassword_${name}`);

/** Waits until the field shows this error under it. */
async function expectFieldError(page: Page, name: string, text: string): Promise<void> {
  await page
    .locator('.ant-form-item', { has: input(page, name) })
    .locator('.ant-form-item-explain-error', { hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

async function openDialog(page: Page): Promise<void> {
  await page.goto('/profile/index');
  await page.getByTestId('profile-change-password').click();
  await page.getByTestId('change-password-form').waitFor();
}

/** A warning toast with this text; spec §8/§9: it goes away after 2 s. */
async function expectShortWarning(page: Page, text: string): Promise<void> {
  const toast = page.locator('.ant-message-notice', {
    has: page.locator('.ant-message-warning'),
    hasText: text,
  });
  await toast.waitFor();
  const shown = Date.now();
  await toast.waitFor({ state: 'detached', timeout: 5000 });
  // 2 s plus the leave animation, well short of the 5 s of an error toast.
  expect(Date.now() - shown).toBeLessThan(4000);
}

describe('change password (spec §5, §7, §8)', () => {
  it('requires the fields on blur and change and caps them at 31 characters', async () => {
    const { page } = await signedIn(DEMO_OPERATOR);
    await openDialog(page);
    await input(page, 'oldPassword').focus();
    await input(page, 'oldPassword').blur();
    await expectFieldError(page, 'oldPassword', 'Current password is required');
    await input(page, 'newPassword').fill('abc');
    await expectFieldError(page, 'newPassword', 'New password must be 6 to 31 characters');
    await input(page, 'newPassword').fill('');
    await expectFieldError(page, 'newPassword', 'New password is required');
    for (const name of ['oldPassword', 'newPassword', 'confirmNewPassword']) {
      expect(await input(page, name).getAttribute('maxlength')).toBe('31');
    }
    await input(page, 'confirmNewPassword').fill('x'.repeat(40));
    expect(await input(page, 'confirmNewPassword').inputValue()).toHaveLength(31);
  });

  it('warns when the confirmation differs and sends nothing', async () => {
    const { page } = await signedIn(DEMO_OPERATOR);
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/updatePassword')) sent += 1;
    });
    await openDialog(page);
    await input(page, 'oldPassword').fill(DEMO_OPERATOR.password);
    await input(page, 'newPassword').fill(NEW_PASSWORD);
    await input(page, 'confirmNewPassword').fill(`${NEW_PASSWORD}!`);
    await expectFieldError(page, 'confirmNewPassword', 'The two passwords do not match');
    await page.getByTestId('change-password-submit').click();
    await expectShortWarning(page, 'The new password and its confirmation do not match');
    expect(sent).toBe(0);
  });

  it('warns for 2 s and marks the field when the current password is wrong', async () => {
    const { page } = await signedIn(DEMO_OPERATOR);
    await openDialog(page);
    await input(page, 'oldPassword').fill('not-my-password');
    await input(page, 'newPassword').fill(NEW_PASSWORD);
    await input(page, 'confirmNewPassword').fill(NEW_PASSWORD);
    const answered = page.waitForResponse((response) => response.url().includes('/updatePassword'));
    await page.getByTestId('change-password-submit').click();
    expect((await answered).status()).toBe(400);
    await expectFieldError(page, 'oldPassword', 'The current password is wrong');
    await expectShortWarning(page, 'The current password is wrong');
    // Never the 5 s error toast of the HTTP client.
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    // The dialog stays open for another try.
    expect(await page.getByTestId('change-password-form').isVisible()).toBe(true);
  });

  it('changes the password, keeps this session, ends the others, and the new one signs in', async () => {
    // Another browser signed in as the same user, with the profile form open.
    const other = await signedIn(DEMO_OPERATOR);
    await other.page.goto('/profile/index');
    await other.page.getByTestId('profile-page').waitFor();

    // This time the dialog opens from the navbar's user menu (spec §2).
    const { page } = await signedIn(DEMO_OPERATOR);
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('menu-change-password').click();
    await page.getByTestId('change-password-form').waitFor();
    await input(page, 'oldPassword').fill(DEMO_OPERATOR.password);
    await input(page, 'newPassword').fill(NEW_PASSWORD);
    await input(page, 'confirmNewPassword').fill(NEW_PASSWORD);
    const answered = page.waitForResponse((response) => response.url().includes('/updatePassword'));
    await page.getByTestId('change-password-submit').click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ code: 200, message: 'success', data: null });
    const body: unknown = answer.request().postDataJSON();
    expect(body).toMatchObject({ oldPassword: DEMO_OPERATOR.password, newPassword: NEW_PASSWORD });
    expect((body as { id?: unknown }).id).toMatch(/^\d+$/);
    await page
      .locator('.ant-message-success', { hasText: 'Your password has been changed' })
      .waitFor();
    await page.getByTestId('change-password-form').waitFor({ state: 'detached' });

    // This session goes on.
    await page.reload();
    await page.getByTestId('workbench').waitFor();

    // The other session's next call is refused: the logged-out dialog, whose Re-Login leads to
    // the sign-in page.
    await other.page.getByTestId('profile-save').click();
    const dialog = other.page.locator('.ant-modal-confirm', {
      hasText: 'You have been logged out',
    });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await other.page.waitForURL((url) => url.pathname === '/login');
    await other.page.locator('#login_username').waitFor();

    // Signing out and in again: the old password no longer works, the new one does.
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    await signIn(page, DEMO_OPERATOR);
    await page.locator('.ant-message-warning').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.reload();
    await signIn(page, { ...DEMO_OPERATOR, password: NEW_PASSWORD });
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
  });
});
