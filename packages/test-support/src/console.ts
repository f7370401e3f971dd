import {
  knowsSecondFactor,
  nextSecondFactorCode,
  rememberRecoveryCodes,
  rememberSecondFactor,
  startTestServer,
} from './test-server';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { launchBrowser } from './browser';

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The real server (fresh seeded database, built SPA) and a Chromium to drive it. */
export interface ConsoleRig {
  server: TestServer;
  browser: Browser;
  /** A fresh browser profile (no cookies, no storage) on the console, in the given locale. */
  newPage(locale?: string): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function startConsole(
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<ConsoleRig> {
  const [server, browser] = await Promise.all([startTestServer(options), launchBrowser()]);
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async newPage(locale = 'en-US') {
      // Reduced motion: antd then opens selects and dialogs without animating them, so a click
      // never lands on an option still sliding in (the console honours the setting for people).
      const context = await browser.newContext({
        baseURL: server.url,
        locale,
        reducedMotion: 'reduce',
      });
      contexts.push(context);
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await Promise.allSettled(contexts.map((context) => context.close()));
      await browser.close();
      await server.close();
    },
  };
}

/** The path and query the page shows now. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Waits until the page's path (and query) is the given one. */
export async function waitForPath(page: Page, path: string | RegExp): Promise<void> {
  await page.waitForURL((url) => {
    const current = `${url.pathname}${url.search}`;
    return typeof path === 'string' ? current === path : path.test(current);
  });
}

export interface Credentials {
  tenantCode: string;
  username: string;
  password: string;
}

/** The login form's tenant select. */
export function tenantSelect(page: Page) {
  return page.locator('.ant-select', { has: page.locator('#login_tenantCode') });
}

/**
 * Chooses the option with `text` in an antd select, the way a person does: open it, click the
 * option, and open it again when the dropdown closed before the click landed (a select whose
 * options arrive while it opens re-renders and may close on a loaded machine). Done when the
 * select shows the choice. `search` is typed into a select that searches as one types.
 */
export async function chooseOption(
  page: Page,
  select: Locator,
  text: string,
  options: { search?: string } = {},
): Promise<void> {
  const deadline = Date.now() + 30_000;
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
    hasText: text,
  });
  for (;;) {
    if (!(await option.first().isVisible())) {
      await select.click();
      // A select searched on the server lists its options once the person types.
      if (options.search) await page.keyboard.type(options.search);
    }
    try {
      await option.first().click({ timeout: 3_000 });
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    // antd 6 shows a single select's choice as the text of its content box.
    const shown = await select.locator('.ant-select-content').first().innerText({ timeout: 3_000 });
    if (shown.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`the select never showed "${text}"`);
  }
}

/** Types the account and waits for the tenant look-up the form makes as the user types. */
export async function typeAccount(page: Page, account: string): Promise<void> {
  const lookup = page.waitForResponse((response) =>
    response.url().includes('/api/admin/sysuser/queryTenantUser'),
  );
  await page.locator('#login_username').fill(account);
  await lookup;
}

/**
 * Signs in the way a person does: type the account, choose its tenant in the select the look-up
 * filled, type the password, press the button.
 */
export async function signIn(page: Page, who: Credentials): Promise<void> {
  await completeSecondFactor(page, who, await submitPassword(page, who));
}

/**
 * The first step of signIn alone, for tests that handle the second factor themselves: resolves
 * with the token endpoint's answer.
 */
export async function submitPassword(page: Page, who: Credentials): Promise<Response> {
  await typeAccount(page, who.username);
  await chooseOption(page, tenantSelect(page), `(${who.tenantCode})`);
  await page.locator('#login_password').fill(who.password);
  const answer = page.waitForResponse((response) =>
    response.url().includes('/api/uaa/oauth/token'),
  );
  await page.locator('button[type=submit]').click();
  return answer;
}

/**
 * When the server asks for a second factor (the platform tenant's administrators must have
 * one), do what a person with an authenticator does: set it up from the secret the page shows
 * the first time, type a fresh code, keep the recovery codes, go on.
 */
async function completeSecondFactor(page: Page, who: Credentials, answer: Response) {
  if (answer.status() !== 401) return;
  const error = ((await answer.json()) as { error?: string }).error;
  if (error !== 'mfa_required' && error !== 'mfa_enrollment_required') return;
  const origin = new URL(page.url()).origin;
  if (error === 'mfa_enrollment_required') {
    const secret = (await page.getByTestId('mfa-secret').innerText()).trim();
    rememberSecondFactor(origin, who.tenantCode, who.username, secret);
  } else if (!knowsSecondFactor(origin, who.tenantCode, who.username)) {
    return; // a test that handles the second factor itself
  }
  await page
    .getByTestId('mfa-code')
    .fill(await nextSecondFactorCode(origin, who.tenantCode, who.username));
  const confirmed = page.waitForResponse((response) =>
    response.url().includes('/api/uaa/oauth/token'),
  );
  await page.getByTestId('mfa-submit').click();
  const token = (await (await confirmed).json()) as { recovery_codes?: string[] };
  if (token.recovery_codes) {
    rememberRecoveryCodes(origin, who.tenantCode, who.username, token.recovery_codes);
    await page.getByTestId('mfa-continue').click();
  }
}

export const DEMO_ADMIN: Credentials = {
  tenantCode: 'demo',
  username: 'admin',
  password: 'admin123',
};
export const DEMO_OPERATOR: Credentials = {
  tenantCode: 'demo',
  username: 'operator',
  password: 'operator123',
};
export const ACME_ADMIN: Credentials = {
  tenantCode: 'acme',
  username: 'admin',
  password: 'admin123',
};

/**
 * The newest code the server "sent" to a recipient: the development notifier writes SMS and
 * e-mail to the outbox table instead of a gateway.
 */
export async function readCode(server: TestServer, recipient: string): Promise<string> {
  const rows = await server.db.system((sql) =>
    sql.query<{ body: string }>(
      'select body from outbox_message where recipient = $1 order by id desc limit 1',
      [recipient],
    ),
  );
  const code = /\b(\d{6})\b/.exec(rows.rows[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}`);
  return code;
}

/** A six-digit code that is surely not the given one. */
export function wrongCode(code: string): string {
  return code.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));
}

/** Waits until the document title is the given one (titles follow the route after it renders). */
export async function waitForTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title === expected, title);
}

/** A fresh desktop-sized browser profile signed in as `who`, its workbench shown. */
export async function openWorkbench(
  rig: ConsoleRig,
  who: Credentials = DEMO_ADMIN,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await rig.newPage();
  await opened.page.setViewportSize({ width: 1280, height: 760 });
  await opened.page.goto('/login');
  await signIn(opened.page, who);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

/** The paths of the tags view's tabs, in order. */
export function tagPaths(page: Page): Promise<(string | null)[]> {
  return page
    .getByTestId('tag')
    .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-path')));
}
