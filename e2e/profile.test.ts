import type { Page } from 'playwright-core';
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

async function openProfile() {
  const opened = await rig.newPage();
  const { page } = opened;
  await page.goto('/login');
  await signIn(page, DEMO_ADMIN);
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
  await page.goto('/profile/index');
  await page.getByTestId('profile-page').waitFor();
  return opened;
}

const field = (page: Page, name: string) => page.locator(`#profile_${name}`);

/** The error text shown under a field of the profile form. */
async function fieldError(page: Page, name: string): Promise<string> {
  const item = page.locator('.ant-form-item', { has: field(page, name) });
  const error = item.locator('.ant-form-item-explain-error');
  await error.first().waitFor();
  return (await error.allInnerTexts()).join(' ');
}

async function save(page: Page) {
  const answered = page.waitForResponse((response) =>
    response.url().includes('/updateSysUserDetail'),
  );
  await page.getByTestId('profile-save').click();
  return answered;
}

/**
 * Saves a new e-mail or mobile: the console asks for the current password first and sends the
 * details with it. Answers the server's answer.
 */
async function saveWithPassword(page: Page, password: string) {
  await page.getByTestId('profile-save').click();
  await page.getByTestId('proof-password').fill(password);
  const answered = page.waitForResponse((response) =>
    response.url().includes('/updateSysUserDetail'),
  );
  await page.getByTestId('proof-confirm').click();
  return answered;
}

describe('/profile/index', () => {
  it('shows the account read-only and the saved details in the form', async () => {
    const { page } = await openProfile();
    expect(await page.getByTestId('profile-username').innerText()).toBe('admin');
    expect(await page.getByTestId('profile-tenant').innerText()).toBe(
      'Demo Irrigation District (demo)',
    );
    expect(await page.getByTestId('profile-roles').innerText()).toContain('ROLE_ADMIN');
    expect(await field(page, 'nickname').inputValue()).toBe('管理员');
    expect(await field(page, 'email').inputValue()).toBe('admin@demo.shuili.local');
    expect(await field(page, 'mobile').inputValue()).toBe('+8613800000001');
    // No avatar yet: the default image.
    expect(await page.getByTestId('avatar-preview').getAttribute('data-fallback')).toBe('true');
  });

  it('checks the fields by the spec §5 rules before sending', async () => {
    const { page } = await openProfile();
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/updateSysUserDetail')) sent += 1;
    });
    await field(page, 'nickname').fill('   ');
    await field(page, 'email').fill('not-an-email');
    await field(page, 'mobile').fill('13800000001');
    await field(page, 'avatar').fill('javascript:alert(1)');
    await page.getByTestId('profile-save').click();
    expect(await fieldError(page, 'nickname')).toBe('Nickname is required');
    expect(await fieldError(page, 'email')).toBe('Enter a valid email address');
    expect(await fieldError(page, 'mobile')).toContain('country code');
    expect(await fieldError(page, 'avatar')).toContain('http');
    expect(sent).toBe(0);
  });

  it("places the server's conflict on the field", async () => {
    const { page } = await openProfile();
    // The operator of the same tenant has this number.
    await field(page, 'mobile').fill('+86 13800000002');
    const answer = await saveWithPassword(page, DEMO_ADMIN.password);
    expect(answer.status()).toBe(409);
    expect(await fieldError(page, 'mobile')).toBeTruthy();
    expect(await page.locator('.ant-message-error').count()).toBe(0);
  });

  it('saves, shows the new nickname in the console and keeps it across a reload', async () => {
    const { page } = await openProfile();
    const brokenAvatar = `${rig.server.url}/no-such-avatar.png`;
    await field(page, 'nickname').fill('  Canal keeper ');
    await field(page, 'email').fill('keeper@demo.shuili.local');
    await field(page, 'mobile').fill('+86 13911112222');
    await field(page, 'geographic').fill('Zhejiang / Hangzhou');
    await field(page, 'address').fill('1 Canal Road');
    await field(page, 'profile').fill('Looks after the east canal.');
    await field(page, 'avatar').fill(brokenAvatar);
    // An address that does not load falls back to the default image (spec §8).
    await page.locator('[data-testid=avatar-preview][data-fallback=true]').waitFor();

    // A new e-mail and mobile take the current password: a wrong one is refused in the dialog.
    const refused = await saveWithPassword(page, 'not-my-password');
    expect(refused.status()).toBe(400);
    const dialog = page.locator('.ant-modal', { has: page.getByTestId('proof-password') });
    await dialog
      .locator('.ant-form-item-explain-error', { hasText: 'The current password is wrong' })
      .waitFor();
    await page.getByTestId('proof-password').fill(DEMO_ADMIN.password);
    const answered = page.waitForResponse((response) =>
      response.url().includes('/updateSysUserDetail'),
    );
    await page.getByTestId('proof-confirm').click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toMatchObject({
      email: 'keeper@demo.shuili.local',
      currentPassword: DEMO_ADMIN.password,
    });
    await page
      .locator('.ant-message-success', { hasText: 'Your details have been saved' })
      .waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('profile-nickname').innerText()).toBe('Canal keeper');
    expect(await field(page, 'nickname').inputValue()).toBe('Canal keeper');
    await page.getByTestId('navbar-user').filter({ hasText: 'Canal keeper' }).waitFor();

    // A working address shows the picture.
    await field(page, 'avatar').fill(`${rig.server.url}/favicon.svg`);
    await page.locator('[data-testid=avatar-preview][data-fallback=false]').waitFor();
    await save(page);

    await page.reload();
    await page.getByTestId('profile-page').waitFor();
    expect(await field(page, 'nickname').inputValue()).toBe('Canal keeper');
    expect(await field(page, 'email').inputValue()).toBe('keeper@demo.shuili.local');
    expect(await field(page, 'mobile').inputValue()).toBe('+8613911112222');
    expect(await field(page, 'geographic').inputValue()).toBe('Zhejiang / Hangzhou');
    expect(await field(page, 'address').inputValue()).toBe('1 Canal Road');
    expect(await field(page, 'profile').inputValue()).toBe('Looks after the east canal.');
    expect(await field(page, 'avatar').inputValue()).toBe(`${rig.server.url}/favicon.svg`);
    await page.locator('[data-testid=avatar-preview][data-fallback=false]').waitFor();

    await page.goto('/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await page.getByTestId('user-nickname').innerText()).toBe('Canal keeper');
    expect(await page.getByTestId('navbar-user').innerText()).toContain('Canal keeper');

    // Empty optional fields clear them.
    await page.goto('/profile/index');
    await page.getByTestId('profile-page').waitFor();
    await field(page, 'address').fill('');
    await field(page, 'avatar').fill('');
    await save(page);
    await page.reload();
    await page.getByTestId('profile-page').waitFor();
    expect(await field(page, 'address').inputValue()).toBe('');
    expect(await page.getByTestId('avatar-preview').getAttribute('data-fallback')).toBe('true');
  });
});
