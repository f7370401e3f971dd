import {
  markStepUsed,
  rememberRecoveryCodes,
  rememberSecondFactor,
  totpCode,
  totpStep,
} from '@shuili/test-support/test-server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, PLATFORM_ADMIN, signedIn, view } from './admin-console';
import {
  DEMO_ADMIN,
  DEMO_OPERATOR,
  startConsole,
  submitPassword,
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

/** Opens sign-in and sends the password, leaving the second factor to the test. */
async function sendPassword(page: Page, who: Credentials) {
  await page.goto('/login');
  await submitPassword(page, who);
}

async function sendCode(page: Page, code: string) {
  await page.getByTestId('mfa-code').fill(code);
  await page.getByTestId('mfa-submit').click();
}

/**
 * Turns two-step verification on from the profile page (the current password first); answers
 * its card and recovery codes.
 */
async function turnOnFromProfile(page: Page, who: Credentials) {
  await page.goto('/profile/index');
  const card = page.getByTestId('profile-mfa');
  await card.getByTestId('mfa-state').filter({ hasText: 'Off' }).waitFor();
  await card.getByTestId('mfa-enable').click();
  await page.getByTestId('proof-password').fill(who.password);
  await page.getByTestId('proof-confirm').click();
  const secret = (await card.getByTestId('mfa-secret').innerText()).trim();
  await card.getByTestId('mfa-confirm-code').fill(totpCode(secret));
  await card.getByTestId('mfa-confirm').click();
  await card.getByTestId('mfa-recovery-codes').waitFor();
  const codes = (await card.getByTestId('mfa-recovery-codes').locator('code').innerText()).split(
    '\n',
  );
  await card.getByTestId('mfa-codes-done').click();
  await card.getByTestId('mfa-state').filter({ hasText: 'On' }).waitFor();
  return { card, codes, secret };
}

describe('two-step verification and sessions in the console', () => {
  it('the platform administrator sets up an authenticator at first sign-in, then needs a code', async () => {
    const { page } = await rig.newPage();
    await sendPassword(page, PLATFORM_ADMIN);
    // The set-up: a QR code and the secret as text.
    const secret = (await page.getByTestId('mfa-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByTestId('mfa-qr').waitFor();
    expect(await page.getByTestId('mfa-qr').locator('canvas, svg').count()).toBe(1);

    const step = totpStep();
    await sendCode(page, totpCode(secret, step + 3)); // a real code of another time
    await page
      .locator('.ant-message-warning', {
        hasText: 'The authenticator code is wrong or was already used',
      })
      .waitFor();
    await sendCode(page, totpCode(secret, step));
    const codes = page.getByTestId('mfa-recovery-codes').locator('code');
    await codes.waitFor();
    const recovery = (await codes.innerText()).split('\n');
    expect(recovery).toHaveLength(10);
    await page.getByTestId('mfa-continue').click();
    await waitForPath(page, '/home/workbench');
    rememberSecondFactor(rig.server.url, 'platform', 'admin', secret);
    markStepUsed(rig.server.url, 'platform', 'admin', step);
    rememberRecoveryCodes(rig.server.url, 'platform', 'admin', recovery);

    // A new browser: password, then the code; a used code is refused.
    const { page: later } = await rig.newPage();
    await sendPassword(later, PLATFORM_ADMIN);
    await later.getByTestId('mfa-code').waitFor();
    await sendCode(later, totpCode(secret, step));
    await later
      .locator('.ant-message-warning', {
        hasText: 'The authenticator code is wrong or was already used',
      })
      .waitFor();
    await sendCode(later, totpCode(secret, step + 1));
    markStepUsed(rig.server.url, 'platform', 'admin', step + 1);
    await waitForPath(later, '/home/workbench');

    // The helper the other browser tests use does the same by itself.
    const third = await signedIn(rig, PLATFORM_ADMIN);
    expect((await api(third, 'GET', '/api/account/mfa/queryMfaStatus')).body.data).toMatchObject({
      enabled: true,
      required: true,
    });
  });

  it('a demo user turns two-step verification on from the profile, renews the recovery codes, turns it off', async () => {
    const page = await signedIn(rig, DEMO_OPERATOR);
    const { card, codes, secret } = await turnOnFromProfile(page, DEMO_OPERATOR);
    expect(codes).toHaveLength(10);

    // New recovery codes against the authenticator's next code (the one just used is spent).
    await card.getByTestId('mfa-renew').click();
    await card.getByTestId('mfa-renew-code').fill(totpCode(secret, totpStep() + 1));
    await card.getByTestId('mfa-renew-confirm').click();
    const renewed = (
      await card.getByTestId('mfa-recovery-codes').locator('code').innerText()
    ).split('\n');
    expect(renewed).toHaveLength(10);
    expect(renewed).not.toContain(codes[0]);
    await card.getByTestId('mfa-codes-done').click();

    // Turned off again with the password and a recovery code, for the tests after this one.
    await card.getByTestId('mfa-disable').click();
    await card.locator('#mfaDisable_currentPassword').fill(DEMO_OPERATOR.password);
    await card.locator('#mfaDisable_code').fill(renewed[0]!);
    await card.getByTestId('mfa-disable-confirm').click();
    await card.getByTestId('mfa-state').filter({ hasText: 'Off' }).waitFor();
  });

  it('an administrator turns off the two-step verification of a user who lost the authenticator', async () => {
    const operator = await signedIn(rig, DEMO_OPERATOR);
    await turnOnFromProfile(operator, DEMO_OPERATOR);

    const admin = await signedIn(rig, DEMO_ADMIN);
    await admin.goto('/admin/sysuser');
    const users = view(admin, '/admin/sysuser');
    const row = users.locator('.ant-table-row', { hasText: 'operator' }).first();
    await row.getByTestId('row-reset-second-factor').click();
    const answered = admin.waitForResponse((response) =>
      response.url().includes('/resetSysUserSecondFactor'),
    );
    await admin.getByTestId('reset-second-factor-confirm').click();
    expect((await answered).status()).toBe(200);
    await admin
      .locator('.ant-message-notice', { hasText: 'Two-step verification of' })
      .filter({ hasText: 'is off' })
      .waitFor();

    // The operator was signed out with it, and signs in again with the password alone.
    const { page: again } = await rig.newPage();
    await sendPassword(again, DEMO_OPERATOR);
    await waitForPath(again, '/home/workbench');
    await again.goto('/profile/index');
    await again
      .getByTestId('profile-mfa')
      .getByTestId('mfa-state')
      .filter({ hasText: 'Off' })
      .waitFor();
  });

  it('lists the sessions and signs out the others, then everywhere', async () => {
    const other = await signedIn(rig, DEMO_OPERATOR);
    const page = await signedIn(rig, DEMO_OPERATOR, 'zh-CN');
    await page.goto('/profile/index');
    const card = page.getByTestId('profile-sessions');
    await card.locator('.ant-card-head-title', { hasText: '登录会话' }).waitFor();
    await card.locator('[data-testid="session-row"][data-current="true"]').waitFor();
    expect(await card.getByTestId('session-row').count()).toBeGreaterThanOrEqual(2);
    expect(await card.locator('[data-current="true"]').count()).toBe(1);

    expect((await api(other, 'GET', '/api/uaa/users/getSysUser')).status).toBe(200);
    await card.getByTestId('sessions-sign-out-others').click();
    await page.locator('.ant-message-success').waitFor();
    // Refused at once: the other browser is signed out.
    expect((await api(other, 'GET', '/api/uaa/users/getSysUser')).status).toBe(401);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="session-row"]').length === 1,
    );

    await card.getByTestId('sessions-sign-out-everywhere').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await waitForPath(page, /^\/login/);
  });
});
