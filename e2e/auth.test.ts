import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACME_ADMIN,
  DEMO_ADMIN,
  DEMO_OPERATOR,
  pathOf,
  signIn,
  startConsole,
  submitPassword,
  tenantSelect,
  typeAccount,
  waitForPath,
  waitForTitle,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { addUser, freshIp, lastCode, requestToken } from '@shuili/test-support/api-client';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

async function signedIn(who: Credentials = DEMO_ADMIN, locale?: string) {
  const opened = await rig.newPage(locale);
  await opened.page.goto('/login');
  await signIn(opened.page, who);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

async function text(page: Page, testId: string) {
  return (await page.getByTestId(testId).innerText()).trim();
}

describe('sign-in', () => {
  it('signs the demo admin in and lands on the workbench with user, tenant and roles', async () => {
    const { page, context } = await rig.newPage();
    const authorities: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/queryCurrentAuthority')) authorities.push(request.headers());
    });

    await page.goto('/login');
    await waitForTitle(page, 'Sign in - Smart IoT Management System');
    expect(await page.getByTestId('demo-hint').innerText()).toContain('admin123');
    await signIn(page, DEMO_ADMIN);

    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await text(page, 'user-username')).toBe('admin');
    expect(await text(page, 'user-nickname')).toBe('管理员');
    expect(await text(page, 'tenant-name')).toBe('Demo Irrigation District');
    expect(await text(page, 'tenant-code')).toBe('demo');
    expect(await text(page, 'user-roles')).toContain('ROLE_ADMIN');
    expect(await text(page, 'active-role')).toBe('ROLE_ADMIN');
    expect(await text(page, 'navbar-tenant')).toContain('Demo Irrigation District');
    await waitForTitle(page, 'Workbench - Smart IoT Management System');

    const cookies = await context.cookies();
    const token = cookies.find((cookie) => cookie.name === 'token');
    expect(token?.value).toBeTruthy();
    expect(token?.httpOnly).toBe(false);
    expect(cookies.find((cookie) => cookie.name === 'refresh_token')?.httpOnly).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('tenantName'))).toBe(
      'Demo Irrigation District',
    );
    // The session sequence sends the bearer token and, once user info is known, the active role
    // as spec §4 stores it: the role's code plus "-token".
    expect(authorities[0]?.authorization).toBe(`Bearer ${token?.value}`);
    expect(authorities[0]?.['x-role-code']).toBe('ROLE_ADMIN-token');
  });

  it('keeps the session across a reload', async () => {
    const { page } = await signedIn();
    await page.reload();
    await page.getByTestId('workbench').waitFor();
    expect(pathOf(page)).toBe('/home/workbench');
    expect(await text(page, 'user-username')).toBe('admin');
  });

  it('sends a signed-in user who opens /login to the workbench', async () => {
    const { page } = await signedIn();
    await page.goto('/login');
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
  });

  it('sends a signed-out visitor to sign-in with the intended path, and back there after', async () => {
    const { page } = await rig.newPage();
    await page.goto('/home/workbench?view=roles');
    await waitForPath(page, '/login?redirect=%2Fhome%2Fworkbench%3Fview%3Droles');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench?view=roles');
    await page.getByTestId('workbench').waitFor();
  });

  it('sends / to the workbench, through sign-in when signed out', async () => {
    const { page } = await rig.newPage();
    await page.goto('/');
    await waitForPath(page, '/login?redirect=%2F');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
  });

  it('fills the tenant by itself when the account has exactly one', async () => {
    const { page } = await rig.newPage();
    await page.goto('/login');
    await typeAccount(page, DEMO_OPERATOR.username);
    await tenantSelect(page).locator('.ant-select-content', { hasText: '(demo)' }).waitFor();
    await page.locator('#login_password').fill(DEMO_OPERATOR.password);
    await page.locator('button[type=submit]').click();
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await text(page, 'user-roles')).toBe('ROLE_OPERATOR');
    expect(await text(page, 'active-role')).toBe('ROLE_OPERATOR');
  });

  it('remembers the last tenant for an account with several', async () => {
    const { page } = await signedIn(DEMO_ADMIN);
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    await typeAccount(page, 'admin');
    await tenantSelect(page).locator('.ant-select-content', { hasText: '(demo)' }).waitFor();
  });

  it('asks for the account first, filters the tenants as one types, and Enter takes the typed one', async () => {
    const { page } = await rig.newPage();
    const tokenCalls: { url: string; body: string }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/uaa/oauth/token'))
        tokenCalls.push({ url: request.url(), body: request.postData() ?? '' });
    });
    await page.goto('/login');
    await page.locator('#login_password').waitFor();
    // As people fill it: the account, then its tenants, then the password.
    const order = await page
      .locator('#login_username, #login_tenantCode, #login_password')
      .evaluateAll((inputs) => inputs.map((input) => input.id));
    expect(order).toEqual(['login_username', 'login_tenantCode', 'login_password']);

    // admin belongs to several tenants (demo, acme, platform).
    await typeAccount(page, 'admin');
    await tenantSelect(page).click();
    await page.locator('#login_tenantCode:not([readonly])').waitFor();
    await page.keyboard.type('demo');
    const options = page.locator('.ant-select-dropdown .ant-select-item-option');
    await expect.poll(() => options.allInnerTexts()).toEqual(['Demo Irrigation District (demo)']);
    await page.keyboard.press('Enter');
    await tenantSelect(page).locator('.ant-select-content', { hasText: '(demo)' }).waitFor();

    // Text that matches no tenant of the account chooses none.
    await tenantSelect(page).click();
    await page.keyboard.type('nosuch');
    await page.locator('.ant-select-dropdown', { hasText: 'No tenant found' }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await tenantSelect(page).locator('.ant-select-content', { hasText: '(demo)' }).waitFor();

    await page.locator('#login_password').fill(DEMO_ADMIN.password);
    await page.locator('#login_password').press('Enter');
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await text(page, 'tenant-code')).toBe('demo');

    // The password went in the form body, never in the URL.
    const signInCall = tokenCalls.find((call) => call.body.includes('grant_type=password'));
    expect(signInCall?.body).toContain(`password=${DEMO_ADMIN.password}`);
    expect(tokenCalls.every((call) => !call.url.includes('password'))).toBe(true);
  });

  it('names the tenants in the reader’s language, the remembered one too', async () => {
    // Signed in in English: the tenant is remembered with its English name.
    const { page, context } = await signedIn(DEMO_ADMIN);
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    await context.addCookies([{ name: 'language', value: 'zh', url: page.url() }]);
    await page.reload();
    // Before the account is typed, the code stands in for a name in another language.
    await tenantSelect(page)
      .locator('.ant-select-content', { hasText: /^demo$/ })
      .waitFor();
    await typeAccount(page, 'admin');
    await tenantSelect(page)
      .locator('.ant-select-content', { hasText: '演示灌区 (demo)' })
      .waitFor();
  });

  it('warns for two seconds about a wrong password and stays on sign-in', async () => {
    const { page, context } = await rig.newPage();
    await page.goto('/login');
    await signIn(page, { ...ACME_ADMIN, password: 'not-the-password' });
    const warning = page.locator('.ant-message-warning');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('Wrong tenant, username or password');
    expect(pathOf(page)).toBe('/login');
    expect((await context.cookies()).some((cookie) => cookie.name === 'token')).toBe(false);
    await warning.waitFor({ state: 'detached', timeout: 5_000 });
  });

  it('tells an address that guessed too often when to try again', async () => {
    await addUser(rig.server, 'demo', 'slowed-web', 'right-password-1');
    const { page } = await rig.newPage();
    await page.goto('/login');
    const who = { tenantCode: 'demo', username: 'slowed-web', password: 'wrong-guess' };
    const statuses = [(await submitPassword(page, who)).status()];
    // Three wrong passwords come at once; the fourth right after them must wait.
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      const answer = page.waitForResponse((response) =>
        response.url().includes('/api/uaa/oauth/token'),
      );
      await page.locator('button[type=submit]').click();
      statuses.push((await answer).status());
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    const error = page.locator('.ant-message-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/Too many attempts\. Try again in [12] seconds/);
    expect(pathOf(page)).toBe('/login');
  });

  it('asks for the code sent to the account after a guess from many addresses, and signs in with it', async () => {
    const mobile = '+8613566667777';
    await addUser(rig.server, 'demo', 'guarded', 'right-password-1');
    await rig.server.db.system(async (sql) => {
      await sql.query(`UPDATE sys_user SET mobile = $1 WHERE username = 'guarded'`, [mobile]);
      await sql.query(
        `INSERT INTO sys_user_role (tenant_id, user_id, role_id)
         SELECT u.tenant_id, u.id, r.id FROM sys_user u
           JOIN sys_role r ON r.tenant_id = u.tenant_id AND r.role_code = 'ROLE_OPERATOR'
          WHERE u.username = 'guarded'`,
      );
    });
    const params = { grant_type: 'password', tenantCode: 'demo', username: 'guarded' };
    for (let address = 1; address <= 4; address += 1)
      await requestToken(rig.server, { ...params, password: 'wrong-guess' }, { ip: freshIp() });

    const { page } = await rig.newPage();
    await page.goto('/login');
    const who = { tenantCode: 'demo', username: 'guarded', password: 'right-password-1' };
    expect((await submitPassword(page, who)).status()).toBe(401);
    const warning = page.locator('.ant-message-warning');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('too many failed sign-ins');
    await page.getByTestId('send-sign-in-code').click();
    await page.locator('.ant-message-success').waitFor();
    await page.getByLabel('Verification code').fill(await lastCode(rig.server, mobile));
    await page.locator('button[type=submit]').click();
    await waitForPath(page, '/home/workbench');
    expect(await text(page, 'user-username')).toBe('guarded');
  });

  it('checks the form before calling the server', async () => {
    const { page } = await rig.newPage();
    const tokenCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/oauth/token')) tokenCalls.push(request.url());
    });
    await page.goto('/login');
    await page.locator('#login_username').fill('ab');
    await page.locator('#login_password').fill('12345');
    await page.locator('button[type=submit]').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'Choose a tenant' }).waitFor();
    await page.locator('.ant-form-item-explain-error', { hasText: 'must be 3 to 100' }).waitFor();
    await page.locator('.ant-form-item-explain-error', { hasText: 'must be 6 to 31' }).waitFor();
    expect(tokenCalls).toEqual([]);
  });
});

describe('session failures', () => {
  it('drops a token the server refuses, says so, and returns to sign-in with the target', async () => {
    const { page, context } = await rig.newPage();
    await context.addCookies([{ name: 'token', value: 'not-a-real-token', url: rig.server.url }]);
    await page.goto('/home/workbench');
    await waitForPath(page, '/login?redirect=%2Fhome%2Fworkbench');
    const error = page.locator('.ant-message-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('Login expired, log in again');
    expect((await context.cookies()).some((cookie) => cookie.name === 'token')).toBe(false);
  });
});

describe('language', () => {
  it('switches to zh, keeps it across a reload, and asks the server in zh too', async () => {
    const { page, context } = await signedIn();
    await page.getByTestId('language-select').click();
    const english = page.locator('.ant-select-item-option', { hasText: 'English' });
    expect(await english.getAttribute('class')).toContain('ant-select-item-option-disabled');
    await page.locator('.ant-select-item-option', { hasText: '简体中文' }).click();

    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').locator('text=退出登录').waitFor();
    await waitForTitle(page, '工作台 - 智慧物联网管理系统');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    // Server-translated data follows the language.
    await page.getByTestId('tenant-name').locator('text=演示灌区').waitFor();
    expect((await context.cookies()).find((cookie) => cookie.name === 'language')?.value).toBe(
      'zh',
    );

    await page.reload();
    await page.getByTestId('workbench').waitFor();
    await waitForTitle(page, '工作台 - 智慧物联网管理系统');
    await page.getByTestId('navbar-user').click();
    expect(await page.getByTestId('logout').innerText()).toContain('退出登录');
  });

  it('follows the browser language when no language was chosen', async () => {
    const zh = await rig.newPage('zh-CN');
    await zh.page.goto('/login');
    await zh.page.locator('button[type=submit]', { hasText: '登' }).waitFor();
    await waitForTitle(zh.page, '登录 - 智慧物联网管理系统');

    const tw = await rig.newPage('zh-TW');
    await tw.page.goto('/login');
    await tw.page.locator('button[type=submit]').waitFor();
    await waitForTitle(tw.page, '登入 - 智慧物聯網管理系統');
  });
});

describe('sign-out', () => {
  it('returns to /login, forgets the session, and closed paths ask for sign-in again', async () => {
    const { page, context } = await signedIn();
    const token = (await context.cookies()).find((cookie) => cookie.name === 'token')?.value;

    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    expect((await context.cookies()).some((cookie) => cookie.name === 'token')).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('tenantName'))).toBeNull();

    // The server ended the session: the old token no longer opens anything.
    const status = await page.evaluate(async (old) => {
      const response = await fetch('/api/uaa/users/getSysUser', {
        headers: { Authorization: `Bearer ${old}` },
      });
      return response.status;
    }, token);
    expect(status).toBe(401);

    await page.goto('/home/workbench');
    await waitForPath(page, '/login?redirect=%2Fhome%2Fworkbench');
  });
});

describe('other routes', () => {
  it('sends unknown paths to /404 when signed in, with a way home', async () => {
    const { page } = await signedIn();
    await page.goto('/no/such/page');
    await waitForPath(page, '/404');
    const home = page.locator('a', { hasText: 'Back to home' });
    await home.waitFor();
    await waitForTitle(page, 'Page not found - Smart IoT Management System');
    await home.click();
    await waitForPath(page, '/home/workbench');
  });

  it('sends unknown paths to sign-in first when signed out', async () => {
    const { page } = await rig.newPage();
    await page.goto('/no/such/page');
    await waitForPath(page, '/login?redirect=%2Fno%2Fsuch%2Fpage');
  });

  it('opens /401 and /404 without signing in', async () => {
    const { page } = await rig.newPage();
    await page.goto('/401');
    await page.locator('text=not allowed').waitFor();
    expect(pathOf(page)).toBe('/401');
  });

  /** An access token of the attacker's own account, as anyone can get for themselves. */
  async function attackerToken(): Promise<string> {
    const response = await fetch(
      `${rig.server.url}/api/uaa/oauth/token?${new URLSearchParams({
        grant_type: 'password',
        type: 'account',
        scope: 'ui',
        client_id: 'browser',
        tenantCode: DEMO_OPERATOR.tenantCode,
        username: DEMO_OPERATOR.username,
        password: DEMO_OPERATOR.password,
      }).toString()}`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from('browser:browser').toString('base64')}`,
        },
      },
    );
    return ((await response.json()) as { access_token: string }).access_token;
  }

  const tokenCookie = async (context: BrowserContext) =>
    (await context.cookies()).find((cookie) => cookie.name === 'token')?.value;

  it('a planted /auth-redirect link signs a signed-out browser in as nobody', async () => {
    const token = await attackerToken();
    for (const link of [
      `/auth-redirect?token=${token}&redirect=${encodeURIComponent('/home/workbench')}`,
      `/auth-redirect#token=${token}`,
      `/auth-redirect?access_token=${token}`,
    ]) {
      const { page, context } = await rig.newPage();
      await page.goto(link);
      await page.getByTestId('auth-redirect-refused').waitFor();
      // The credential is gone from the address bar (and so from history and Referer).
      await waitForPath(page, '/auth-redirect');
      expect(page.url()).not.toContain(token);
      expect(await tokenCookie(context)).toBeUndefined();
      await page.goto('/home/workbench');
      await waitForPath(page, '/login?redirect=%2Fhome%2Fworkbench');
    }
  });

  it('a planted /auth-redirect link leaves a signed-in browser signed in as itself', async () => {
    const token = await attackerToken();
    const { page, context } = await signedIn(DEMO_ADMIN);
    const own = await tokenCookie(context);
    await page.goto(
      `/auth-redirect?token=${token}&redirect=${encodeURIComponent('/home/workbench')}`,
    );
    await page.getByTestId('auth-redirect-refused').waitFor();
    expect(await tokenCookie(context)).toBe(own);
    await page.getByRole('link', { name: 'Continue' }).click();
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await text(page, 'user-username')).toBe('admin');
  });

  it('/auth-redirect carries on with the session the browser has, or through sign-in', async () => {
    const { page } = await signedIn(DEMO_OPERATOR);
    await page.goto(`/auth-redirect?redirect=${encodeURIComponent('/home/workbench')}`);
    await waitForPath(page, '/home/workbench');
    expect(await text(page, 'user-username')).toBe('operator');

    const signedOut = (await rig.newPage()).page;
    await signedOut.goto(`/auth-redirect?redirect=${encodeURIComponent('/home/workbench')}`);
    await waitForPath(signedOut, '/login?redirect=%2Fhome%2Fworkbench');
    await signIn(signedOut, DEMO_OPERATOR);
    await waitForPath(signedOut, '/home/workbench');
  });
});
