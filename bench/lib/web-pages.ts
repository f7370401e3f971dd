import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO_ADMIN, signIn, waitForPath } from '@shuili/test-support/console';
import { recordBundle, type RouteBundle } from './web-bundle';

/** The sign-in form's account field: Shuili's /login and the peer page both have it. */
const SIGN_IN_FORM = '#login_username';

/** What a first visit to a sign-in page downloads: a fresh browser profile, until network idle. */
export async function signInPageBundle(browser: Browser, url: string): Promise<RouteBundle> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const recording = recordBundle(page);
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.locator(SIGN_IN_FORM).waitFor();
    return await recording.measure();
  } finally {
    await context.close();
  }
}

/** Signs in as demo's admin through the console's form and waits for the workbench. */
async function signInToWorkbench(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/login`);
  await signIn(page, DEMO_ADMIN);
  await waitForPath(page, '/home/workbench');
  await page.getByTestId('workbench').waitFor();
}

/**
 * What the workbench downloads on a first visit with a remembered session (as
 * e2e/bundle.test.ts measures it): signed in once, then a fresh profile with that session's
 * cookies and storage opens /home/workbench with nothing in its HTTP cache.
 */
export async function workbenchBundle(browser: Browser, baseUrl: string): Promise<RouteBundle> {
  const first = await browser.newContext();
  const session = await (async () => {
    try {
      await signInToWorkbench(await first.newPage(), baseUrl);
      return await first.storageState();
    } finally {
      await first.close();
    }
  })();
  const context = await browser.newContext({ storageState: session });
  try {
    const page = await context.newPage();
    const recording = recordBundle(page);
    await page.goto(`${baseUrl}/home/workbench`, { waitUntil: 'networkidle' });
    await page.getByTestId('workbench').waitFor();
    await page.getByTestId('tags-view').waitFor();
    return await recording.measure();
  } finally {
    await context.close();
  }
}

/**
 * Signs in, through the console's form, inside the default profile of a Chromium started for
 * Lighthouse (connected over its debugging port), so Lighthouse's later runs there carry the
 * session cookie, as a returning user's browser does. The tab is closed afterwards so it does not
 * keep working beside Lighthouse's.
 */
export async function signInOverCdp(debuggingPort: number, baseUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debuggingPort}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await signInToWorkbench(page, baseUrl);
    await page.close();
  } finally {
    await browser.close();
  }
}
