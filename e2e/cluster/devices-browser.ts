import { DEMO_ADMIN, signIn, waitForPath } from '@shuili/test-support/console';
import { launchBrowser } from '@shuili/test-support/browser';
import type { Browser, Page } from 'playwright-core';
import type { Rig, RigNode } from '../../scripts/cluster/rig';

/**
 * A console tab signed in through the rig's nginx, and which node holds its live connection.
 * nginx names the upstream it chose in `X-Upstream` (scripts/cluster/rig.ts), also on the answer
 * to the /mqtt WebSocket handshake, which Chromium reports over CDP (a page's own code cannot
 * read a WebSocket's response headers).
 */
export interface WatchingBrowser {
  browser: Browser;
  page: Page;
  /** `host:port` of every /mqtt handshake nginx answered for the tab, oldest first. */
  handshakes: string[];
  /** The node the tab's newest live connection went to (undefined before the first). */
  liveNode(): RigNode | undefined;
  close(): Promise<void>;
}

/** The port of the upstream nginx ended on (it lists every one it tried, the last answered). */
function upstreamPort(upstream: string): string | undefined {
  return upstream.split(',').at(-1)?.trim().split(':').at(-1);
}

export async function openWatchingBrowser(rig: Rig): Promise<WatchingBrowser> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: rig.url, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const handshakes: string[] = [];
    // Listening before the first page load: the console opens its live connection at sign-in.
    const cdp = await context.newCDPSession(page);
    const liveRequests = new Set<string>();
    cdp.on('Network.webSocketCreated', ({ requestId, url }) => {
      if (new URL(url).pathname === '/mqtt') liveRequests.add(requestId);
    });
    cdp.on('Network.webSocketHandshakeResponseReceived', ({ requestId, response }) => {
      if (!liveRequests.has(requestId)) return;
      const header = Object.entries(response.headers).find(
        ([name]) => name.toLowerCase() === 'x-upstream',
      );
      handshakes.push(header?.[1] ?? 'no X-Upstream header');
    });
    await cdp.send('Network.enable');
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    return {
      browser,
      page,
      handshakes,
      liveNode() {
        const last = handshakes.at(-1);
        const port = last === undefined ? undefined : upstreamPort(last);
        return rig.nodes.find((node) => new URL(node.url).port === port);
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The console's reading of a device property, shown exactly as `text` (no other value). */
export function shownValue(page: Page, key: string, text: string) {
  const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page
    .getByTestId(`live-value-${key}`)
    .getByTestId('live-value-text')
    .filter({ hasText: exact });
}
