import { deviceTopic, type ThingParam } from '@shuili/contract';
import { connectAsync } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './admin-console';
import {
  DEMO_ADMIN,
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

async function signedIn(who: Credentials, options: { clock?: boolean } = {}) {
  const opened = await rig.newPage();
  // A controllable clock (time still runs) lets a test jump to the bell's next refetch.
  if (options.clock) await opened.page.clock.install();
  await opened.page.goto('/login');
  await signIn(opened.page, who);
  await waitForPath(opened.page, '/home/workbench');
  await opened.page.getByTestId('workbench').waitFor();
  return opened;
}

/** Waits until the bell shows this many unread. */
async function waitForCount(page: Page, count: number): Promise<void> {
  await page.locator(`[data-testid=notification-bell][data-count="${count}"]`).waitFor();
}

async function openBell(page: Page): Promise<void> {
  await page.getByTestId('notification-bell').click();
  await page.getByTestId('notification-panel').waitFor();
}

async function closeBell(page: Page): Promise<void> {
  await page.getByTestId('notification-bell').click();
  await page.getByTestId('notification-panel').waitFor({ state: 'hidden' });
}

async function readStates(page: Page): Promise<string[]> {
  return page
    .getByTestId('notification-table')
    .locator('[data-testid=notification-read-state]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-read') ?? ''));
}

async function titles(page: Page): Promise<string[]> {
  return page.getByTestId('notification-title').allInnerTexts();
}

/** Chooses an option of one of the page's filter selects. */
async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', {
      hasText: new RegExp(`^${option}$`),
    })
    .click();
}

/** Inserts notifications straight into the demo tenant, as a publisher would. */
async function publish(
  rows: { title: string; content: string; type: string; to?: string; minutesAgo: number }[],
): Promise<void> {
  await rig.server.db.system(async (sql) => {
    for (const row of rows) {
      await sql.query(
        `INSERT INTO notification (tenant_id, title, content, type, publish_scope, publish_targets, created_at)
         SELECT t.id, $1, $2, $3,
                CASE WHEN $4::text IS NULL THEN 'all' ELSE 'users' END,
                CASE WHEN $4::text IS NULL THEN '{}'::bigint[]
                     ELSE ARRAY(SELECT u.id FROM sys_user u WHERE u.tenant_id = t.id AND u.username = $4) END,
                now() - make_interval(mins => $5)
           FROM tenant t WHERE t.tenant_code = 'demo'`,
        [row.title, row.content, row.type, row.to ?? null, row.minutesAgo],
      );
    }
  });
}

describe('notification bell', () => {
  it('shows the unread count, marks one read on click and all read per tab', async () => {
    const { page } = await signedIn(DEMO_ADMIN);
    await waitForCount(page, 3);

    await openBell(page);
    const notices = page.getByTestId('notification-list-notification');
    expect(await notices.getByTestId('notification-item').count()).toBe(2);
    expect(await notices.innerText()).toContain('Spring irrigation opens');
    // Relative time from lib/format: the seeded notices are 3 days and 1 day old.
    expect(await notices.innerText()).toContain('1 day ago');
    await page.getByTestId('notification-tab-message').click();
    const messages = page.getByTestId('notification-list-message');
    expect(await messages.getByTestId('notification-item').count()).toBe(1);
    expect(await messages.innerText()).toContain('Welcome to Shuili');
    expect(await messages.innerText()).toContain('2 hours ago');

    // Clicking an item reads it: the count drops and /mynotification opens on it.
    await page.getByTestId('notification-tab-notification').click();
    await notices.getByTestId('notification-item').filter({ hasText: 'Pump station' }).click();
    await waitForPath(page, /^\/mynotification\?id=\d+$/);
    const detail = page.getByTestId('notification-detail');
    await detail.waitFor();
    expect(await page.getByTestId('notification-content').innerText()).toContain(
      'Pump station No. 2 is out of service',
    );
    await waitForCount(page, 2);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await waitForPath(page, '/mynotification');

    // 'Mark all read' on the messages tab, then on the notices tab.
    await openBell(page);
    await page.getByTestId('notification-tab-message').click();
    await page.getByTestId('notification-mark-all').click();
    await waitForCount(page, 1);
    await page.getByTestId('notification-tab-notification').click();
    await page.getByTestId('notification-mark-all').click();
    await waitForCount(page, 0);
    expect(await page.getByTestId('notification-item').count()).toBe(0);

    // The server agrees: a reload still shows none unread.
    await page.reload();
    await page.getByTestId('my-notification').waitFor();
    await waitForCount(page, 0);
    expect(await readStates(page)).toEqual(['true', 'true', 'true']);
  });

  it("links 'view all' to /mynotification and refetches on focus and every 60 s", async () => {
    const { page } = await signedIn(DEMO_OPERATOR, { clock: true });
    await waitForCount(page, 3);
    await openBell(page);
    await page.getByTestId('notification-view-all').click();
    await waitForPath(page, '/mynotification');
    await page.getByTestId('my-notification').waitFor();

    await publish([
      {
        title: 'Gate 4 opened',
        content: '<p>Gate 4</p>',
        type: 'message',
        to: 'operator',
        minutesAgo: 0,
      },
    ]);
    const asked = page.waitForResponse((response) =>
      response.url().includes('/queryHeadNotification'),
    );
    // TanStack Query hears focus through visibilitychange.
    await page.evaluate(() =>
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true })),
    );
    await asked;
    await waitForCount(page, 4);
    await openBell(page);
    await page.getByTestId('notification-tab-message').click();
    expect(await page.getByTestId('notification-list-message').innerText()).toContain('just now');
    await page.keyboard.press('Escape');

    // Without focus changes, the bell asks again after 60 s.
    await publish([
      {
        title: 'Gate 5 opened',
        content: '<p>Gate 5</p>',
        type: 'message',
        to: 'operator',
        minutesAgo: 0,
      },
    ]);
    const polled = page.waitForResponse((response) =>
      response.url().includes('/queryHeadNotification'),
    );
    await page.clock.fastForward(30_000);
    await page.waitForTimeout(300);
    expect(await page.getByTestId('notification-bell').getAttribute('data-count')).toBe('4');
    await page.clock.fastForward(31_000);
    await polled;
    await waitForCount(page, 5);
  });
});

describe('/mynotification', () => {
  it('pages, filters by type and read state, and marks read', async () => {
    await publish(
      Array.from({ length: 23 }, (_, index) => ({
        title: `Canal report ${String(index + 1).padStart(2, '0')}`,
        content: `<p>Level report ${index + 1}</p>`,
        type: 'message',
        to: 'operator',
        minutesAgo: 10 + index,
      })),
    );
    const { page } = await signedIn(DEMO_OPERATOR);
    await page.goto('/mynotification');
    await page.getByTestId('my-notification').waitFor();
    // 2 notices + 'Shift handover' + gates 4 and 5 + 23 reports.
    await page.locator('.ant-pagination-total-text', { hasText: '28 in all' }).waitFor();
    expect(await titles(page)).toHaveLength(10);
    expect((await titles(page)).slice(0, 2)).toEqual(['Gate 5 opened', 'Gate 4 opened']);

    await page.locator('.ant-pagination-item-3').click();
    await page.locator('.ant-pagination-item-active', { hasText: '3' }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=notification-title]').length === 8,
    );
    expect((await titles(page)).at(-1)).toBe('Spring irrigation opens');

    await choose(page, 'notification-type-filter', 'Notice');
    await page.locator('.ant-pagination-total-text', { hasText: '2 in all' }).waitFor();
    expect(await titles(page)).toEqual(['Pump station maintenance', 'Spring irrigation opens']);

    // Mark one read from the table: the read filter and the bell follow.
    await page
      .locator('tr', { hasText: 'Pump station maintenance' })
      .getByTestId('notification-mark-read')
      .click();
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid=notification-read-state][data-read=true]')
          .length === 1,
    );
    await waitForCount(page, 27);
    await choose(page, 'notification-read-filter', 'Unread');
    await page.locator('.ant-pagination-total-text', { hasText: '1 in all' }).waitFor();
    expect(await titles(page)).toEqual(['Spring irrigation opens']);
    await choose(page, 'notification-read-filter', 'Read');
    await page.locator('.ant-pagination-total-text', { hasText: '1 in all' }).waitFor();
    expect(await titles(page)).toEqual(['Pump station maintenance']);

    // Mark all read of the chosen type leaves the messages unread.
    await choose(page, 'notification-read-filter', 'All');
    await page.getByTestId('notification-mark-all-page').click();
    await waitForCount(page, 26);
    await choose(page, 'notification-type-filter', 'Message');
    await page.locator('.ant-pagination-total-text', { hasText: '26 in all' }).waitFor();
    expect(new Set(await readStates(page))).toEqual(new Set(['false']));
  });

  it('opens an item as plain text and never runs its markup', async () => {
    await publish([
      {
        title: 'Rich text',
        content:
          '<p>Hello <b>there</b></p><img src="x" onerror="window.__pwned = 1"><script>window.__pwned = 2</script><ul><li>one</li><li>two</li></ul>',
        type: 'notice',
        minutesAgo: 0,
      },
    ]);
    const { page } = await signedIn(DEMO_ADMIN);
    await page.goto('/mynotification');
    await page.getByTestId('my-notification').waitFor();
    await page.getByTestId('notification-title').filter({ hasText: 'Rich text' }).click();
    await waitForPath(page, /^\/mynotification\?id=\d+$/);
    const content = page.getByTestId('notification-content');
    await content.waitFor();
    expect(await content.innerText()).toBe('Hello there\n• one\n• two');
    expect(await content.locator('img, script, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // Opening it read it; a reload of the link shows the same item again.
    await page.reload();
    await page.getByTestId('notification-detail').waitFor();
    expect(await page.getByTestId('notification-content').innerText()).toContain('Hello there');
  });
});

/** Answers the API's data, or fails with its answer. */
async function apiData<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await api(page, method, url, body);
  if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

/** A demo device with a numeric property that has a range. */
async function deviceWithRange(page: Page) {
  const devices = await apiData<{ list: Array<{ id: string; deviceNo: string }> }>(
    page,
    'GET',
    '/api/iot/device/queryIotDevice?currentPage=1&pageSize=100',
  );
  for (const device of devices.list) {
    const detail = await apiData<{ thingModel: { properties: ThingParam[] } }>(
      page,
      'GET',
      `/api/iot/device/queryDeviceDetail?id=${device.id}`,
    );
    const property = detail.thingModel.properties.find(
      (one) => one.type === 'number' && one.min !== undefined && one.max !== undefined,
    );
    if (property) return { ...device, property, min: property.min!, max: property.max! };
  }
  throw new Error('no demo device with a numeric property and a range');
}

const bellCount = async (page: Page) =>
  Number(await page.getByTestId('notification-bell').getAttribute('data-count'));

describe('alarms reach people', () => {
  it('a device past a rule pops up and counts on the bell within 5 s, and is acknowledged from the list', async () => {
    const { page } = await signedIn(DEMO_ADMIN);
    const chosen = await deviceWithRange(page);
    const at = (fraction: number) =>
      Number((chosen.min + (chosen.max - chosen.min) * fraction).toFixed(2));
    // Three rules of rising levels on the same property.
    for (const [level, fraction] of [
      ['yellow', 0.2],
      ['orange', 0.4],
      ['red', 0.6],
    ] as const)
      await apiData(page, 'POST', '/api/iot/alarm/addAlarmRule', {
        ruleName: `e2e ${level}`,
        deviceId: chosen.id,
        propertyKey: chosen.property.key,
        kind: 'above',
        high: at(fraction),
        level,
      });
    const issued = await apiData<{ username: string; secret: string }>(
      page,
      'POST',
      '/api/iot/device/resetDeviceSecret',
      { id: chosen.id },
    );
    const device = await connectAsync(`${rig.server.url.replace(/^http/, 'ws')}/mqtt`, {
      clientId: issued.username,
      username: issued.username,
      password: issued.secret,
      reconnectPeriod: 0,
    });
    const report = (value: number) =>
      device.publishAsync(
        deviceTopic('demo', chosen.deviceNo, 'telemetry'),
        JSON.stringify({ values: { [chosen.property.key]: value } }),
        { qos: 1 },
      );
    try {
      // Only red pops up for this user (their choice, kept on the server).
      await openBell(page);
      await page.getByTestId('notification-tab-alarm').click();
      await page.getByTestId('alarm-popup-level').click();
      const saved = page.waitForResponse((response) =>
        response.url().includes('/updateAlarmPreference'),
      );
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', {
          hasText: 'Red and above',
        })
        .click();
      expect((await saved).status()).toBe(200);
      await closeBell(page);
      const before = await bellCount(page);

      // Yellow and orange: counted at once, no pop-up.
      await report(at(0.5));
      await page
        .locator(`[data-testid=notification-bell][data-count="${before + 2}"]`)
        .waitFor({ timeout: 5000 });
      await page.waitForTimeout(500);
      expect(await page.getByTestId('alarm-popup').count()).toBe(0);

      // Red: pops up and counts within 5 s, in the reader's language only.
      await report(at(0.8));
      const popup = page.locator('[data-testid=alarm-popup][data-level=red]');
      await popup.waitFor({ timeout: 5000 });
      await page
        .locator(`[data-testid=notification-bell][data-count="${before + 3}"]`)
        .waitFor({ timeout: 5000 });
      // (The demo's device names are Chinese: only the console's own words are checked.)
      const text = await popup.innerText();
      expect(text).toContain('Red alarm');
      expect(text).toContain('threshold');
      expect(text).not.toMatch(/告警|阈值|閾值/);

      // The pop-up opens the device, whose header shows the highest alarm that holds (its
      // health code stays as it was); the bell lists the three, in English only.
      await popup.getByTestId('alarm-popup-device').click();
      await waitForPath(page, `/iot/device/${chosen.id}`);
      const header = page.locator('[data-testid=device-alarm][data-level=red]');
      await header.waitFor();
      expect(await header.getAttribute('data-active')).toBe('3');
      await openBell(page);
      await page.getByTestId('notification-tab-alarm').click();
      const entries = page.getByTestId('notification-list-alarm').getByTestId('notification-alarm');
      await entries.nth(2).waitFor();
      expect(await entries.count()).toBe(3);
      expect(await entries.first().innerText()).toContain('Red alarm');
      expect(await entries.first().innerText()).not.toMatch(/告警|阈值|閾值/);
      await closeBell(page);

      // The warning list: level and state as coloured tags; acknowledge one, then the rest.
      await page.goto('/iot/alarmRecord');
      const table = page.getByTestId('resource-table');
      // The rows of this test's rules (the demo district has alarms of its own).
      const row = (level: string) =>
        table.locator('tr', {
          hasText: `e2e ${level}`,
          has: page.locator(`[data-testid=alarm-level][data-level=${level}]`),
        });
      await row('red').waitFor();
      for (const level of ['yellow', 'orange', 'red'])
        await row(level).locator('[data-testid=alarm-state][data-state=open]').waitFor();
      await row('yellow').getByTestId('alarm-ack-row').click();
      await page.getByTestId('alarm-ack-comment').fill('Checked the canal: rain');
      await page.getByTestId('alarm-ack-ok').click();
      await row('yellow').locator('[data-testid=alarm-ack][data-acknowledged=true]').waitFor();
      await waitForCount(page, before + 2);

      await row('orange').locator('.ant-checkbox-input').check();
      await row('red').locator('.ant-checkbox-input').check();
      await page.getByTestId('alarm-ack-selected').click();
      await page.getByTestId('alarm-ack-comment').fill('Gate opened downstream');
      await page.getByTestId('alarm-ack-ok').click();
      await row('red').locator('[data-testid=alarm-ack][data-acknowledged=true]').waitFor();
      await waitForCount(page, before);

      const records = await apiData<{
        list: Array<{ level: string; acknowledgedBy: string; ackComment: string }>;
      }>(page, 'GET', `/api/iot/alarm/queryAlarmRecord?deviceId=${chosen.id}&pageSize=10`);
      expect(Object.fromEntries(records.list.map((one) => [one.level, one.ackComment]))).toEqual({
        yellow: 'Checked the canal: rain',
        orange: 'Gate opened downstream',
        red: 'Gate opened downstream',
      });
      expect(new Set(records.list.map((one) => one.acknowledgedBy))).toEqual(new Set(['admin']));
    } finally {
      await device.endAsync(true);
    }
  });
});
