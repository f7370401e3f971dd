import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, freshIp, lastOutboxMessage } from '@shuili/test-support/api-client';
import {
  readCode,
  signIn,
  startConsole,
  tenantSelect,
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

it('signs in with a mobile number and an SMS code', async () => {
  const { page } = await rig.newPage();
  await page.goto('/login');
  await page.locator('.ant-segmented-item', { hasText: 'Mobile' }).click();

  const lookup = page.waitForResponse((response) => response.url().includes('/queryTenantUser'));
  await page.locator('#login_mobile').fill('+86 13800000002');
  await lookup;
  await tenantSelect(page).locator('.ant-select-content', { hasText: '(demo)' }).waitFor();

  const sent = page.waitForResponse((response) => response.url().includes('/getSmsCaptcha'));
  await page.getByTestId('send-sms').click();
  const request = (await sent).request();
  expect(new URL(request.url()).searchParams.get('tenantCode')).toBe('demo');
  const code = await readCode(rig.server, '+8613800000002');

  await page.locator('#login_smsCaptcha').fill(` ${code} `);
  const token = page.waitForRequest((outgoing) => outgoing.url().includes('/oauth/token'));
  await page.locator('button[type=submit]').click();
  const sentToken = await token;
  // The parameters travel in the form body, never in the URL.
  expect(new URL(sentToken.url()).search).toBe('');
  const params = new URLSearchParams(sentToken.postData() ?? '');
  // Spec §5: the code and mobile are trimmed before they are sent.
  expect(params.get('grant_type')).toBe('mobile');
  expect(params.get('type')).toBe('mobile');
  expect(params.get('smsCaptcha')).toBe(code);
  expect(params.get('mobile')).toBe('+86 13800000002');

  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
  expect((await page.getByTestId('user-username').innerText()).trim()).toBe('operator');
});

it('resets a forgotten password with a code sent by e-mail', async () => {
  const { page } = await rig.newPage();
  await page.goto('/login');
  await page.locator('a', { hasText: 'Forgot password?' }).click();
  await waitForPath(page, '/forgotpassword');

  await page.locator('#forgot_tenantCode').fill('demo');
  await page.locator('#forgot_email').fill('operator@demo.shuili.local');
  const sent = page.waitForResponse((response) => response.url().includes('/getEmailCaptcha'));
  await page.getByTestId('send-email-code').click();
  expect((await sent).status()).toBe(200);
  const code = await readCode(rig.server, 'operator@demo.shuili.local');

  await page.locator('#forgot_charCaptcha').fill(code);
  await page.locator('#forgot_newPassword').fill('new-operator-pass');
  await page.locator('#forgot_confirmPassword').fill('new-operator-pass');
  await page.locator('button[type=submit]').click();
  await waitForPath(page, '/login');

  await signIn(page, { tenantCode: 'demo', username: 'operator', password: 'new-operator-pass' });
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
});

it('sets a new password through an e-mailed reset link, which then no longer works', async () => {
  // Spec §7: retrievePassword with only email and charCaptcha (the e-mailed code) sends a link.
  const email = 'admin@acme.shuili.local';
  const sent = await call(rig.server, 'GET', '/api/account/captcha/getEmailCaptcha', {
    query: { tenantCode: 'acme', email },
    ip: freshIp(),
  });
  expect(sent.status).toBe(200);
  const requested = await call(rig.server, 'POST', '/api/account/sysuserdetail/retrievePassword', {
    body: new URLSearchParams({ email, charCaptcha: await readCode(rig.server, email) }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ip: freshIp(),
  });
  expect(requested.status).toBe(200);
  const mail = (await lastOutboxMessage(rig.server, email)) ?? '';
  const link = new URL(/https?:\/\/\S+resetToken=\d+/.exec(mail)![0]);
  expect(`${link.origin}`).toBe(rig.server.config.publicUrl);
  // The link's page, on this test server's own address.
  const linkPath = `${link.pathname}${link.search}`;

  const { page } = await rig.newPage();
  await page.goto(linkPath);
  await page.getByTestId('reset-link-account').waitFor();
  expect(await page.getByTestId('reset-link-account').innerText()).toContain(
    'admin of Acme Water (acme)',
  );
  await page.locator('#resetLink_newPassword').fill('Acme linked 2026');
  await page.locator('#resetLink_confirmPassword').fill('Acme linked 2026');
  await page.locator('button[type=submit]').click();
  await waitForPath(page, '/login?tenant=acme&username=admin');

  await signIn(page, { tenantCode: 'acme', username: 'admin', password: 'Acme linked 2026' });
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();

  // Used once: opened again, the page says so and offers a new request.
  const { page: again } = await rig.newPage();
  await again.goto(linkPath);
  await again.getByTestId('reset-link-invalid').waitFor();
  expect(await again.getByTestId('reset-link-invalid').innerText()).toContain(
    'This link no longer works',
  );
  await again.getByTestId('reset-link-again').click();
  await waitForPath(again, '/forgotpassword');
  await again.locator('#forgot_tenantCode').waitFor();
});
