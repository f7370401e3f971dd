// One person at the console in the load benchmark: signs in with their own account (their own
// session and token), loads the console, keeps a live connection, then opens screens of the mix
// with think time between them, and the bell polls once a minute.
import { keepAliveClient } from './http-load';
import { connectBrowser, type LiveCopies, type LoadBrowser } from './load-browser';
import { LOAD_USER_PASSWORD, type LoadAccount, type LoadTenant } from './load-data';
import type { LoadRecorder } from './load-recorder';
import {
  BELL,
  BELL_SECONDS,
  screensOf,
  urlOf,
  type Screen,
  type ScreenContext,
} from './load-screens';
import { signIn } from '@shuili/test-support/sign-in';

export interface LoadUserOptions {
  url: string;
  wsUrl: string;
  account: LoadAccount;
  tenant: LoadTenant;
  /** Whether this user's tab keeps a live connection. */
  live: boolean;
  copies: LiveCopies;
  recorder: LoadRecorder;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** A weighted pick among screens. */
function pickScreen(screens: readonly Screen[]): Screen {
  const total = screens.reduce((sum, screen) => sum + screen.weight, 0);
  let at = Math.random() * total;
  for (const screen of screens) if ((at -= screen.weight) < 0) return screen;
  return screens.at(-1)!;
}

/**
 * Signs the user in and loads the console as session.ts does (user, authority, organisations),
 * then opens the live connection. Answers the signed-in user, or throws.
 */
export async function signInUser(options: LoadUserOptions) {
  const { account, recorder } = options;
  const token = await signIn(options.url, account.tenantCode, account.username, LOAD_USER_PASSWORD);
  // A browser holds a few connections to its origin; two suffice for a screen's calls here.
  const client = keepAliveClient(options.url, { authorization: `Bearer ${token}` }, 2);
  const call = async (
    screen: string,
    method: string,
    url: string,
    body?: unknown,
    expected?: Record<number, string>,
  ) => {
    const path = url.split('?')[0]!;
    const name = `${method} ${path}`;
    const t0 = performance.now();
    try {
      const answer = await client.send(method, url, body).catch((error: unknown) => {
        // A browser sends a request again, once, when a connection it reused fails before any
        // answer (the server closed it as idle meanwhile); it is counted, not hidden.
        if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
        recorder.staleConnectionRetries += 1;
        return client.send(method, url, body);
      });
      const why = expected?.[answer.status] ?? '';
      recorder.call(screen, name, answer.status, performance.now() - t0, answer.body, why);
      return answer;
    } catch (error) {
      recorder.call(screen, name, 0, performance.now() - t0, String(error));
      return { status: 0, body: '' };
    }
  };
  const me = await call('sign-in', 'GET', '/api/uaa/users/getSysUser');
  if (me.status !== 200) throw new Error(`getSysUser answered ${me.status}`);
  const userId = (JSON.parse(me.body) as { data: { id: string } }).data.id;
  await call(
    'sign-in',
    'POST',
    `/api/account/sysuserdetail/queryCurrentAuthority?username=${account.username}`,
  );
  await call(
    'sign-in',
    'GET',
    '/api/account/sysuserdetail/queryCurrentOrgs?currentPage=1&pageSize=100',
  );
  const browser = options.live
    ? await connectBrowser({
        wsUrl: options.wsUrl,
        token,
        tenantCode: account.tenantCode,
        username: account.username,
        userId,
        copies: options.copies,
      })
    : undefined;
  return { ...options, call, browser, close: () => (client.close(), browser?.close()) };
}

export type SignedInUser = Awaited<ReturnType<typeof signInUser>>;

/** Opens one screen: its stages one after another, each stage's calls together. */
async function openScreen(user: SignedInUser, screen: Screen, browser?: LoadBrowser) {
  const ctx: ScreenContext = {
    tenant: user.tenant,
    username: user.account.username,
    device: pick(user.tenant.devices),
    pick,
    now: Date.now(),
  };
  await browser?.showDevice(screen.devicePage ? ctx.device.deviceNo : undefined);
  const t0 = performance.now();
  const sentAt = Date.now();
  let commandId: string | undefined;
  for (const stage of screen.stages) {
    const calls = stage(ctx);
    const answers = await Promise.all(
      calls.map((call) =>
        user.call(screen.name, call.method, urlOf(call), call.body, call.expected),
      ),
    );
    if (answers.some((answer) => answer.status < 200 || answer.status > 299)) break;
    if (screen.awaitsCommand && calls.at(-1)?.method === 'POST')
      commandId = (JSON.parse(answers.at(-1)!.body) as { data: { id: string } }).data.id;
  }
  user.recorder.screen(screen.name, performance.now() - t0);
  if (commandId && browser) {
    const outcome = await browser.awaitCommand(commandId, sentAt, 30_000);
    user.recorder.command(outcome.status, outcome.ms);
  }
}

/**
 * Opens screens of the user's role until `stopAt()` (ms), thinking `think` seconds (uniform) between
 * them; the bell polls every minute meanwhile. With `tour`, the screens come in turn instead of by
 * weight (the smoke run: every screen runs inside the measured window, however long it takes).
 */
export async function runUser(
  user: SignedInUser,
  stopAt: () => number,
  think: [number, number],
  tour: boolean,
) {
  const screens = screensOf(user.account.role);
  let nextBell = Date.now() + Math.random() * BELL_SECONDS * 1000;
  // Users do not start in step: each first waits a part of a think time.
  await sleep(Math.random() * think[1] * 1000);
  // A tour goes on past `stopAt()` until every screen has been opened inside the measured window,
  // however slow the machine is.
  const toured = new Set<string>();
  const more = () => Date.now() < stopAt() || (tour && toured.size < screens.length);
  for (let turn = Math.floor(Math.random() * screens.length); more(); turn += 1) {
    const screen = tour ? screens[turn % screens.length]! : pickScreen(screens);
    if (user.recorder.measuring) toured.add(screen.name);
    await openScreen(user, screen, user.browser);
    const thinkMs = (think[0] + Math.random() * (think[1] - think[0])) * 1000;
    const thinkUntil = Math.min(Math.max(stopAt(), Date.now()), Date.now() + thinkMs);
    if (nextBell < thinkUntil) {
      await sleep(nextBell - Date.now());
      await openScreen(user, BELL);
      nextBell += BELL_SECONDS * 1000;
    }
    await sleep(thinkUntil - Date.now());
  }
}
