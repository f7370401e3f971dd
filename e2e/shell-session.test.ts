import {
  appClientEntity,
  entityCalls,
  loginLogEntity,
  sysRoleEntity,
  sysUrlEntity,
  sysUserEntity,
} from '@shuili/contract';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn as apiSignIn } from '@shuili/test-support/api-client';
import {
  DEMO_ADMIN,
  openWorkbench,
  pathOf,
  signIn,
  startConsole,
  tagPaths,
  waitForPath,
  type ConsoleRig,
  type Credentials,
} from '@shuili/test-support/console';
import { sidebarLabels } from './admin-console';

/**
 * Spec §4 session states in the browser: the role switch, a token reset that keeps the tab views
 * against a logout that closes them, a third-party sign-in start; spec §6 route roles; and the
 * open paths that exist (spec §2).
 */
let rig: ConsoleRig;

/** Holds ROLE_OPERATOR and ROLE_AUDITOR (granted Login log, and URL permissions with its URL). */
const TWO_ROLES: Credentials = {
  tenantCode: 'demo',
  username: 'tworoles',
  password: 'tworoles-123',
};

interface MenuNode {
  id: string;
  menuCode: string;
  children: MenuNode[];
}

/** Creates the two-role user as demo's administrator would, through the API. */
async function addTwoRoleUser() {
  const token = (await apiSignIn(rig.server, 'demo', 'admin', 'admin123')).access_token;
  const api = async (
    method: string,
    url: string,
    body?: unknown,
    query?: Record<string, string>,
  ) => {
    const answer = await call(rig.server, method, url, { token, body, query });
    if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  await api('POST', entityCalls(sysRoleEntity).add, {
    roleCode: 'ROLE_AUDITOR',
    roleName: 'Auditor',
  });
  const roles = (await api('GET', entityCalls(sysRoleEntity).query, undefined, {
    pageSize: '100',
  })) as { list: Array<{ id: string; roleCode: string }> };
  const roleId = (code: string) => roles.list.find((role) => role.roleCode === code)!.id;

  // The auditor's menus: the workbench, Login log, and URL permissions (an administrator-only
  // screen, spec §6) with the URL its list calls.
  const tree = (await api('GET', '/api/admin/sysmenu/querySysMenuButtonTree')) as MenuNode[];
  const all = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
  const menuId = (code: string) => all(tree).find((node) => node.menuCode === code)!.id;
  await api('POST', '/api/admin/sysmenu/authorizeMenuToRole', {
    roleId: roleId('ROLE_AUDITOR'),
    menuIds: ['home', 'workbench', 'admin', 'loginlog', 'authority', 'sysurl'].map(menuId),
  });
  const urls = (await api('GET', entityCalls(sysUrlEntity).query, undefined, {
    pageSize: '10000',
  })) as { list: Array<{ id: string; url: string }> };
  const wanted = [entityCalls(loginLogEntity).query, entityCalls(sysUrlEntity).query];
  await api('POST', '/api/admin/sysurl/authorizeUrlToRole', {
    roleId: roleId('ROLE_AUDITOR'),
    urlIds: urls.list.filter((url) => wanted.includes(url.url)).map((url) => url.id),
  });

  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ id: string }>(
      `SELECT o.id::text FROM sys_org o JOIN tenant t ON t.id = o.tenant_id
        WHERE t.tenant_code = 'demo' ORDER BY o.id LIMIT 1`,
    ),
  );
  await api('POST', entityCalls(sysUserEntity).add, {
    username: TWO_ROLES.username,
    nickname: 'Two roles',
    password: TWO_ROLES.password,
    orgId: rows[0]!.id,
    roleIds: [roleId('ROLE_OPERATOR'), roleId('ROLE_AUDITOR')],
  });
}

beforeAll(async () => {
  rig = await startConsole();
  await addTwoRoleUser();
});

afterAll(async () => {
  await rig?.close();
});

const signedIn = (who: Credentials = DEMO_ADMIN) => openWorkbench(rig, who);

/** Opens a screen as the user would, from the sidebar, and waits for its tab. */
async function openFromSidebar(page: Page, label: string, path: string) {
  const sidebar = page.getByTestId('sidebar');
  const item = sidebar.locator('.ant-menu-item', { hasText: new RegExp(`^${label}$`) });
  if (!(await item.isVisible())) await sidebarLabels(page);
  await item.click();
  await waitForPath(page, path);
  await page.locator(`[data-testid=tag][data-path="${path}"]`).waitFor();
}

async function openProfile(page: Page) {
  await page.getByTestId('navbar-user').click();
  await page.getByTestId('menu-profile').click();
  await waitForPath(page, '/profile/index');
  await page.getByTestId('profile-page').waitFor();
}

const tokenCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === 'token')?.value;

describe('role switch (spec §4)', () => {
  it('lists the roles of a user holding several, and switches: menus change, tabs clear, "<role>-token" is sent', async () => {
    const { page } = await signedIn(TWO_ROLES);
    // The first role acts; its menu has Login log. URL permissions is granted too, but it is an
    // administrator's screen (meta roles): no menu item, and its path is unknown to this role.
    expect(await page.getByTestId('active-role').innerText()).toBe('ROLE_AUDITOR');
    const asAuditor = await sidebarLabels(page);
    expect(asAuditor).toEqual(['Workbench', 'System admin', 'Login log']);
    await page.goto('/authority/sysurl');
    await waitForPath(page, '/404');
    await page.goto('/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('activeRole'))).toBe(
      'ROLE_AUDITOR-token',
    );

    await openFromSidebar(page, 'Login log', '/admin/loginlog');
    await openProfile(page);
    expect(await tagPaths(page)).toEqual(['/home/workbench', '/admin/loginlog', '/profile/index']);

    // The dropdown names the roles held, the active one selected.
    await page.getByTestId('navbar-user').click();
    const roles = page.getByTestId('menu-role');
    await roles.first().waitFor();
    expect(await roles.allInnerTexts()).toEqual(['Auditor', 'Operator']);
    const selected = page.locator('.ant-dropdown-menu-item-selected [data-testid=menu-role]');
    expect(await selected.getAttribute('data-role')).toBe('ROLE_AUDITOR');

    const sent: string[] = [];
    page.on('request', (request) => {
      const role = request.headers()['x-role-code'];
      if (request.url().includes('/api/') && role) sent.push(role);
    });
    const reloaded = page.waitForResponse((response) =>
      response.url().includes('/api/uaa/users/getSysUser'),
    );
    await page.locator('[data-testid=menu-role][data-role=ROLE_OPERATOR]').click();
    // User info is reloaded for the role, as "<role>-token" says.
    expect((await reloaded).request().headers()['x-role-code']).toBe('ROLE_OPERATOR-token');
    await waitForPath(page, '/home/workbench');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=active-role]')?.textContent === 'ROLE_OPERATOR',
    );
    // Tab views cleared; the operator's menus instead of the auditor's.
    expect(await tagPaths(page)).toEqual(['/home/workbench']);
    const asOperator = await sidebarLabels(page);
    expect(asOperator).toContain('Devices');
    expect(asOperator).not.toContain('Login log');
    expect(await page.evaluate(() => sessionStorage.getItem('activeRole'))).toBe(
      'ROLE_OPERATOR-token',
    );
    await page.goto('/admin/loginlog');
    await waitForPath(page, '/404');
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.slice(-3))).toEqual(new Set(['ROLE_OPERATOR-token']));

    // The tab keeps acting as the chosen role across a reload.
    await page.goto('/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await page.getByTestId('active-role').innerText()).toBe('ROLE_OPERATOR');

    // Switching from the workbench itself works alike.
    await page.getByTestId('navbar-user').click();
    await page.locator('[data-testid=menu-role][data-role=ROLE_AUDITOR]').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=active-role]')?.textContent === 'ROLE_AUDITOR',
    );
    expect(await sidebarLabels(page)).toEqual(asAuditor);
    expect(pathOf(page)).toBe('/home/workbench');
  });

  it('offers no role choice to a user holding one role', async () => {
    const { page } = await signedIn();
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('menu-profile').waitFor();
    expect(await page.getByTestId('menu-role').count()).toBe(0);
  });
});

/** A call every console page makes on its own as it loads: the bell's head notifications. */
const HEAD = '**/api/notification/notification/queryHeadNotification';

describe('token reset and logout (spec §4)', () => {
  it('keeps the tab views through a Re-Login (reset token), and closes them at logout', async () => {
    const { page, context } = await signedIn();
    await openProfile(page);
    await openFromSidebar(page, 'Users', '/admin/sysuser');
    // Back on the workbench: the other tabs are not where sign-in will lead.
    await page.locator('[data-testid=tag][data-path="/home/workbench"]').click();
    await waitForPath(page, '/home/workbench');
    const tabs = ['/home/workbench', '/profile/index', '/admin/sysuser'];
    expect(await tagPaths(page)).toEqual(tabs);

    // Spec §8: code 50008 asks to log in again; Re-Login resets the token and reloads.
    await page.route(
      HEAD,
      (route: Route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ code: 50008, message: 'Your session has ended' }),
        }),
      { times: 1 },
    );
    await page.reload();
    const dialog = page.locator('.ant-modal-confirm', { hasText: 'You have been logged out' });
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await waitForPath(page, '/login?redirect=%2Fhome%2Fworkbench');
    expect(await tokenCookie(context)).toBeUndefined();

    // The same user signs in again: the tabs are where they were.
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await tagPaths(page)).toEqual(tabs);

    // Logout closes them: the next sign-in starts with the workbench alone.
    await page.getByTestId('navbar-user').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => sessionStorage.getItem('shuili.tabViews'))).toBeNull();
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    await page.getByTestId('workbench').waitFor();
    expect(await tagPaths(page)).toEqual(['/home/workbench']);
  });
});

describe('/thirdLogin (spec §2, §4)', () => {
  it('signs a signed-in user out first, and says when no provider is configured', async () => {
    const { page, context } = await signedIn();
    const token = await tokenCookie(context);
    await openProfile(page);
    await page.goto('/thirdLogin');
    await page
      .getByTestId('third-login-problem')
      .filter({ hasText: 'No third-party sign-in is configured for this link.' })
      .waitFor();
    expect(await tokenCookie(context)).toBeUndefined();
    expect(await page.evaluate(() => sessionStorage.getItem('shuili.tabViews'))).toBeNull();
    // The server ended the session as at logout.
    const status = await page.evaluate(
      async (old) =>
        (await fetch('/api/uaa/users/getSysUser', { headers: { Authorization: `Bearer ${old}` } }))
          .status,
      token,
    );
    expect(status).toBe(401);

    await page.getByTestId('third-login-back').click();
    await waitForPath(page, '/login');
  });

  it('goes to the provider an app client configures, and nowhere a link names', async () => {
    const platform = (await apiSignIn(rig.server, 'platform', 'admin', 'admin123')).access_token;
    const added = await call(rig.server, 'POST', entityCalls(appClientEntity).add, {
      token: platform,
      body: {
        clientId: 'idp-e2e',
        authorizedGrantTypes: ['authorization_code'],
        scope: ['ui'],
        accessTokenValidity: 900,
        refreshTokenValidity: 3600,
        webServerRedirectUri: 'https://idp.example/authorize?client_id=shuili',
      },
    });
    expect(added.status).toBe(200);

    const { page, context } = await signedIn();
    await page.route('https://idp.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Provider sign-in</p>' }),
    );
    // A link naming an address instead of a configured client goes nowhere.
    await page.goto('/thirdLogin?client=https%3A%2F%2Fevil.example');
    await page.getByTestId('third-login-problem').waitFor();
    expect(await tokenCookie(context)).toBeUndefined();

    await page.goto('/thirdLogin?client=idp-e2e');
    await page.waitForURL('https://idp.example/authorize?client_id=shuili');
    await page.locator('text=Provider sign-in').waitFor();
  });
});

describe('the open paths of spec §2 (the public trace pages)', () => {
  it('opens /search and /traceHome without a session, and as themselves when signed in', async () => {
    const { page } = await rig.newPage();
    await page.goto('/search');
    await page.locator('#code').waitFor();
    expect(pathOf(page)).toBe('/search');
    // Without a code the batch page offers the look-up itself.
    await page.goto('/traceHome');
    await page.locator('#code').waitFor();
    expect(pathOf(page)).toBe('/traceHome');

    // Signed in, the console hands them to the server: the public page, not a console screen.
    const signed = await signedIn();
    await signed.page.goto('/search');
    await signed.page.locator('#code').waitFor();
    expect(pathOf(signed.page)).toBe('/search');
    expect(await signed.page.getByTestId('workbench').count()).toBe(0);
  });
});
