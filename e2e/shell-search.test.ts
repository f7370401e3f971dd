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

async function signedIn(locale: string) {
  const opened = await rig.newPage(locale);
  await opened.page.setViewportSize({ width: 1280, height: 760 });
  await opened.page.goto('/login');
  await signIn(opened.page, DEMO_ADMIN);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

/** Opens the menu search, types the query and waits for the first result to read `first`. */
async function search(page: Page, query: string, first: string) {
  if ((await page.getByTestId('header-search-select').count()) === 0) {
    await page.getByTestId('header-search-button').click();
  }
  await page.getByTestId('header-search-select').locator('input').fill(query);
  await page
    .locator('.ant-select-dropdown .ant-select-item-option')
    .first()
    .filter({ hasText: first })
    .waitFor();
}

describe('menu search', () => {
  it("finds screens by pinyin initials and full pinyin in zh, and Enter opens the first ('gzt' → 工作台)", async () => {
    const { page } = await signedIn('zh-CN');
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push(new URL(response.url()).pathname);
    });

    await search(page, 'grzx', '个人中心');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/profile/index');
    await page.getByTestId('profile-page').waitFor();
    // The pinyin dictionary came with the search, not with the console.
    expect(scripts.some((script) => script.includes('/menu-search-'))).toBe(true);

    await search(page, 'gzt', '首页 > 工作台');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/home/workbench');

    await search(page, 'wodetongzhi', '我的通知');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/mynotification');
  });

  it('finds by pinyin in tw, by title and by path in en', async () => {
    const tw = await signedIn('zh-TW');
    await search(tw.page, 'gzt', '首頁 > 工作臺');

    const en = await signedIn('en-US');
    await search(en.page, 'profile', 'Personal profile');
    await search(en.page, 'mynotif', 'My notifications');
    await en.page.locator('.ant-select-dropdown .ant-select-item-option').first().click();
    await waitForPath(en.page, '/mynotification');
  });
});
