import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  signIn,
  startConsole,
  waitForPath,
  waitForTitle,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

async function signedIn(options: { width?: number; locale?: string } = {}) {
  const opened = await rig.newPage(options.locale);
  await opened.page.setViewportSize({ width: options.width ?? 1280, height: 760 });
  await opened.page.goto('/login');
  await signIn(opened.page, DEMO_ADMIN);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

async function box(page: Page, testId: string) {
  const found = await page.getByTestId(testId).boundingBox();
  if (!found) throw new Error(`${testId} is not shown`);
  return found;
}

async function openProfile(page: Page) {
  await page.getByTestId('navbar-user').click();
  await page.getByTestId('menu-profile').click();
  await waitForPath(page, '/profile/index');
  await page.getByTestId('profile-page').waitFor();
}

/** Waits out the sidebar's width transition. */
async function sidebarWidth(page: Page, width: number) {
  await page.waitForFunction(
    (want) =>
      document.querySelector('[data-testid=sidebar]')?.getBoundingClientRect().width === want,
    width,
  );
}

describe('sidebar', () => {
  it('is 230 px wide, shows the menu with the logo, and keeps its state in a cookie', async () => {
    const { page, context } = await signedIn();
    expect(await page.getByTestId('sidebar').getAttribute('data-state')).toBe('open');
    expect((await box(page, 'sidebar')).width).toBe(230);
    const item = page.getByTestId('sidebar').locator('.ant-menu-item', { hasText: 'Workbench' });
    expect(await item.getAttribute('class')).toContain('ant-menu-item-selected');

    await page.getByTestId('hamburger').click();
    await sidebarWidth(page, 80);
    expect(await cookie(context, 'sidebarStatus')).toBe('0');

    await page.reload();
    await page.getByTestId('workbench').waitFor();
    expect(await page.getByTestId('sidebar').getAttribute('data-state')).toBe('closed');
    expect((await box(page, 'sidebar')).width).toBe(80);

    await page.getByTestId('hamburger').click();
    await sidebarWidth(page, 230);
    expect(await cookie(context, 'sidebarStatus')).toBe('1');
  });

  it('closes at 800 px and opens over the page, closing again on a tap outside or a navigation', async () => {
    const { page } = await signedIn({ width: 800 });
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('data-state')).toBe('closed');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sidebar]')!.getBoundingClientRect().right <= 0,
    );
    // The page takes the whole width.
    expect((await box(page, 'header')).x).toBe(0);

    await page.getByTestId('hamburger').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sidebar]')!.getBoundingClientRect().left === 0,
    );
    // An overlay: the page underneath does not move.
    expect((await box(page, 'header')).x).toBe(0);
    await page.mouse.click(700, 400);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=sidebar]')!.getAttribute('data-state') === 'closed',
    );

    await page.getByTestId('hamburger').click();
    await sidebar.locator('.ant-menu-item', { hasText: 'Workbench' }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=sidebar]')!.getAttribute('data-state') === 'closed',
    );
  });

  it('comes back when the window grows past 992 px again, as the user left it', async () => {
    const { page, context } = await signedIn();
    const state = () => page.getByTestId('sidebar').getAttribute('data-state');
    await page.setViewportSize({ width: 800, height: 760 });
    await expect.poll(state).toBe('closed');
    await page.setViewportSize({ width: 1280, height: 760 });
    await expect.poll(state).toBe('open');
    await sidebarWidth(page, 230);
    expect(await cookie(context, 'sidebarStatus')).toBe('1');

    // Closed on desktop by the user: it stays closed across a narrow spell.
    await page.getByTestId('hamburger').click();
    await sidebarWidth(page, 80);
    await page.setViewportSize({ width: 800, height: 760 });
    await page.getByTestId('hamburger').click();
    await expect.poll(state).toBe('open');
    await page.setViewportSize({ width: 1280, height: 760 });
    await expect.poll(state).toBe('closed');
    await sidebarWidth(page, 80);
  });

  it('shows the whole product title beside the logo, in every language', async () => {
    const { page } = await signedIn();
    for (const [language, title] of [
      ['English', 'Smart IoT Management System'],
      ['简体中文', '智慧物联网管理系统'],
    ] as const) {
      if (language !== 'English') {
        await page.getByTestId('language-select').click();
        await page.locator('.ant-select-item-option', { hasText: language }).click();
      }
      const heading = page.getByTestId('sidebar-logo').locator('h1');
      await expect.poll(() => heading.innerText()).toBe(title);
      // Not cut: nothing overflows its box.
      expect(
        await heading.evaluate(
          (element) =>
            element.scrollWidth <= element.clientWidth &&
            element.scrollHeight <= element.clientHeight,
        ),
      ).toBe(true);
    }
  });

  it('links the logo to the workbench and hides it when the settings say so', async () => {
    const { page } = await signedIn();
    await openProfile(page);
    expect(await page.getByTestId('breadcrumb').innerText()).toBe('Personal profile');
    await page.getByTestId('sidebar-logo').click();
    await waitForPath(page, '/home/workbench');
    await page.waitForFunction(
      () =>
        document
          .querySelector<HTMLElement>('[data-testid=breadcrumb]')
          ?.innerText.replace(/\s+/g, ' ') === 'Home / Workbench',
    );

    await page.getByTestId('settings-button').click();
    await page.getByTestId('setting-sidebarLogo').click();
    await page.getByTestId('sidebar-logo').waitFor({ state: 'detached' });
  });
});

describe('navbar', () => {
  it('switches the language, keeps it across a reload, and retitles the page, menu and tabs', async () => {
    const { page, context } = await signedIn();
    await page.getByTestId('language-select').click();
    await page.locator('.ant-select-item-option', { hasText: '繁體中文' }).click();
    await waitForTitle(page, '工作臺 - 智慧物聯網管理系統');
    await page.getByTestId('tag').filter({ hasText: '工作臺' }).waitFor();
    await page.getByTestId('sidebar').locator('.ant-menu-item', { hasText: '工作臺' }).waitFor();
    expect(await cookie(context, 'language')).toBe('tw');

    await page.reload();
    await waitForTitle(page, '工作臺 - 智慧物聯網管理系統');
    await openProfile(page);
    await waitForTitle(page, '個人中心 - 智慧物聯網管理系統');
    expect(await page.getByTestId('breadcrumb').innerText()).toBe('個人中心');
  });

  it('changes the size of every Ant Design component and keeps it in a cookie', async () => {
    const { page, context } = await signedIn();
    const height = async () => (await box(page, 'hamburger')).height;
    const choose = async (size: string) => {
      await page.getByTestId('size-select').click();
      await page.getByTestId(`size-${size}`).click();
      await page.locator('.ant-message-success').last().waitFor();
    };
    // Sizes animate (a CSS transition), so each height is read once it has settled.
    // No cookie yet: medium, Ant Design's own middle size.
    await expect.poll(height).toBe(32);

    await choose('default');
    await expect.poll(height).toBe(40);
    expect(await cookie(context, 'size')).toBe('default');
    await page.reload();
    await page.getByTestId('workbench').waitFor();
    await expect.poll(height).toBe(40);

    await choose('small');
    await expect.poll(height).toBe(24);
    await choose('mini');
    await expect.poll(height).toBeLessThan(24);
    expect(await cookie(context, 'size')).toBe('mini');
  });

  it('warns that the browser cannot work where fullscreen is unsupported', async () => {
    const { page, context } = await signedIn();
    await context.addInitScript(() => {
      Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false });
    });
    await page.reload();
    await page.getByTestId('workbench').waitFor();
    await page.getByTestId('fullscreen').click();
    await page
      .locator('.ant-message-warning', { hasText: 'Your browser cannot work in full screen' })
      .waitFor();
  });

  it('shows the progress bar on a navigation', async () => {
    const { page } = await signedIn();
    // The bar lives a few hundred ms. Watched from inside the page, whatever the clicks before
    // the navigation take (a 5 s wait begun before them ran out on a loaded machine in CI).
    await page.evaluate(() => {
      const seen = () => document.querySelector('#nprogress .bar') !== null;
      const win = window as unknown as { barSeen: boolean };
      win.barSeen = seen();
      new MutationObserver(() => {
        win.barSeen ||= seen();
      }).observe(document.documentElement, { childList: true, subtree: true });
    });
    await openProfile(page);
    expect(await page.evaluate(() => (window as unknown as { barSeen: boolean }).barSeen)).toBe(
      true,
    );
  });
});

describe('settings drawer', () => {
  it('applies the theme colour to every Ant Design component and keeps the settings across a reload', async () => {
    const { page } = await signedIn();
    await openProfile(page);
    const save = page.locator('button.ant-btn-primary[type=submit]');
    const background = () => save.evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(await background()).toBe('rgb(24, 144, 255)');

    await page.getByTestId('settings-button').click();
    await page.getByTestId('theme-#f5222d').click();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('button.ant-btn-primary[type=submit]')!)
          .backgroundColor === 'rgb(245, 34, 45)',
    );
    // The active tab follows too.
    expect(
      await page
        .locator('[data-testid=tag][data-active=true]')
        .evaluate((tag) => getComputedStyle(tag).backgroundColor),
    ).toBe('rgb(245, 34, 45)');

    await page.getByTestId('setting-tagsView').click();
    await page.getByTestId('tags-view').waitFor({ state: 'detached' });
    await page.getByTestId('setting-fixedHeader').click();

    await page.reload();
    await page.getByTestId('profile-page').waitFor();
    expect(await background()).toBe('rgb(245, 34, 45)');
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    expect(
      await page.getByTestId('header').evaluate((header) => getComputedStyle(header).position),
    ).toBe('sticky');
  });
});
