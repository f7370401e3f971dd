// "Shown in the browser": from the start of a navigation to the moment the first row of a list
// is in the page and has a size, measured inside Chromium (performance.now() counts from the
// navigation's start), for a returning user: signed in once through the console's form, then
// each visit opens the route directly with that session. Each visit is split at its list call.
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { DEMO_ADMIN, signIn, waitForPath } from '@shuili/test-support/console';
import { latencySummary } from './stats';

/** A list route, its list call and what its rows look like. */
export interface ListRoute {
  name: string;
  path: string;
  /** The path of the call that answers the list's rows. */
  listCall: string;
  /** A CSS selector matching the list's rows (the first one found counts). */
  rowSelector: string;
}

/** Ant Design table body rows: every ResourcePage list, and the area list in its list view. */
export const TABLE_ROW = '.ant-table-tbody > tr.ant-table-row';

/**
 * One visit, in milliseconds from the navigation's start, measured in the page: when a row with
 * a size is there, and when the list's call (its last one) started and ended, so the time splits
 * into the console starting up (until the call), the call, and drawing the rows.
 */
async function visit(page: Page, url: string, route: ListRoute) {
  await page.goto(url, { waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    ({ selector, call }) => {
      const row = document.querySelector(selector);
      if (!row || row.getBoundingClientRect().height === 0) return false;
      const rowsMs = performance.now();
      const calls = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === call);
      const last = calls.at(-1) as PerformanceResourceTiming | undefined;
      return { rowsMs, callStartMs: last?.startTime ?? NaN, callEndMs: last?.responseEnd ?? NaN };
    },
    { selector: route.rowSelector, call: route.listCall },
    { polling: 'raf', timeout: 60_000 },
  );
  return (await shown.jsonValue()) as { rowsMs: number; callStartMs: number; callEndMs: number };
}

type Visit = Awaited<ReturnType<typeof visit>>;

/** Medians of the visits' parts, and the spread of the whole. */
function visits(list: Visit[]) {
  const median = (pick: (one: Visit) => number) =>
    latencySummary(list.map(pick).filter((value) => !Number.isNaN(value))).p50Ms;
  return {
    ...latencySummary(list.map((one) => one.rowsMs)),
    untilListCallMs: median((one) => one.callStartMs),
    listCallMs: median((one) => one.callEndMs - one.callStartMs),
    drawMs: median((one) => one.rowsMs - one.callEndMs),
  };
}

/** What a first visit fetched before its rows showed: scripts (bytes as sent) and API calls. */
function recordFetches(page: Page) {
  const scripts: Promise<number>[] = [];
  const calls: string[] = [];
  const listener = (request: Request) => {
    if (request.resourceType() === 'script')
      scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(url.pathname);
  };
  page.on('requestfinished', listener);
  return async () => {
    page.off('requestfinished', listener);
    const bytes = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
    return { scripts: scripts.length, scriptKB: Math.round(bytes / 1024), apiCalls: calls };
  };
}

/** A signed-in session (cookies and storage) of demo's admin, through the console's form. */
async function session(browser: Browser, baseUrl: string) {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * Each route `runs` times, taking turns so a busy moment falls on all of them: a first visit
 * (a fresh profile with the session: nothing cached) and then a second visit in the same tab
 * (the console's files cached, the data fetched again).
 */
export async function measureListRoutes(
  browser: Browser,
  baseUrl: string,
  routes: ListRoute[],
  runs: number,
) {
  const storageState = await session(browser, baseUrl);
  const first = routes.map(() => [] as Visit[]);
  const again = routes.map(() => [] as Visit[]);
  const fetched: Awaited<ReturnType<ReturnType<typeof recordFetches>>>[] = [];
  for (let run = -1; run < runs; run += 1) {
    for (const [r, route] of routes.entries()) {
      let context: BrowserContext | undefined;
      try {
        context = await browser.newContext({
          storageState,
          viewport: { width: 1440, height: 900 },
          locale: 'zh-CN',
        });
        const page = await context.newPage();
        const url = `${baseUrl}${route.path}`;
        const once = () =>
          visit(page, url, route).catch((error: Error) => {
            throw new Error(`${route.path}: ${error.message}`);
          });
        const fetches = run < 0 ? recordFetches(page) : undefined;
        const cold = await once();
        if (fetches) fetched[r] = await fetches();
        const warm = await once();
        if (run < 0) continue; // the first round warms the server's caches
        first[r]!.push(cold);
        again[r]!.push(warm);
      } finally {
        await context?.close();
      }
    }
  }
  return routes.map((route, r) => ({
    route: route.name,
    path: route.path,
    firstVisit: visits(first[r]!),
    secondVisit: visits(again[r]!),
    firstVisitFetched: fetched[r]!,
  }));
}
