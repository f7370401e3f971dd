import { launchBrowser } from '@shuili/test-support/browser';
import { watchLoad } from './lib/machine-load';
import { startPeerProcess } from './lib/peer-process';
import { writeResult } from './lib/results';
import { canPin, startServer, withPinnedSelf } from '@shuili/test-support/server-process';
import { round } from './lib/stats';
import { buildConsole, buildPeer, upToDateConsoleDist } from './lib/web-build';
import { transferInKB, type RouteBundle } from './lib/web-bundle';
import {
  launchLighthouseChromium,
  lighthouseRun,
  summarise,
  type LighthouseRun,
  type Preset,
} from './lib/web-lighthouse';
import { signInOverCdp, signInPageBundle, workbenchBundle } from './lib/web-pages';

/** The goals for the sign-in route. */
const GOALS = { loginInitialJsGzipKB: 220, lighthouseDesktopScore: 95 };

const bundleInKB = (bundle: RouteBundle) => ({
  initialJs: transferInKB(bundle.initialJs),
  js: transferInKB(bundle.js),
  css: transferInKB(bundle.css),
  jsFiles: bundle.jsFiles,
  cssFiles: bundle.cssFiles,
});

/** Repeats Lighthouse on each page and preset, taking turns so a busy moment hits them all. */
async function lighthouseTurns(
  port: number,
  pages: { name: string; url: string }[],
  presets: Preset[],
  runs: number,
) {
  const results = new Map<string, LighthouseRun[]>();
  for (let run = 0; run < runs; run += 1) {
    for (const preset of presets) {
      for (const page of pages) {
        const key = `${page.name}/${preset}`;
        const measured = await lighthouseRun(port, page.url, preset);
        console.log(`lighthouse ${key} ${run + 1}/${runs}: score ${measured.score}`);
        results.set(key, [...(results.get(key) ?? []), measured]);
      }
    }
  }
  return Object.fromEntries([...results].map(([key, runs]) => [key, summarise(runs)]));
}

/**
 * Lighthouse on Shuili's /login, the peer page and (after signing in) Shuili's workbench; smoke
 * runs it once, desktop, on /login only, to stay within seconds.
 *
 * Its Chromium is not pinned: it stands for the visitor's device, and Chromium is several
 * processes (browser, renderer, network service, compositor) that a real device runs on several
 * cores. Squeezed onto one core beside this process, its main-thread tasks took twice as long and
 * more: TBT and the score then measured that squeeze, on the bare peer page as much as on
 * Shuili's (README, "web").
 */
async function lighthouseAll(shuiliUrl: string, peerUrl: string, smoke: boolean) {
  const runs = smoke ? 1 : 5;
  const presets: Preset[] = smoke ? ['desktop'] : ['desktop', 'mobile'];
  const chromium = await launchLighthouseChromium();
  try {
    const signInPages = [{ name: 'shuili-login', url: `${shuiliUrl}/login` }];
    if (smoke) return await lighthouseTurns(chromium.port, signInPages, presets, runs);
    signInPages.push({ name: 'peer', url: `${peerUrl}/` });
    const signedOut = await lighthouseTurns(chromium.port, signInPages, presets, runs);
    await signInOverCdp(chromium.port, shuiliUrl);
    const workbench = [{ name: 'shuili-workbench', url: `${shuiliUrl}/home/workbench` }];
    return { ...signedOut, ...(await lighthouseTurns(chromium.port, workbench, presets, runs)) };
  } finally {
    chromium.kill();
  }
}

/**
 * Initial JavaScript and CSS of the console's sign-in route and of the workbench after sign-in,
 * and Lighthouse 12 on them, beside a bare React 19 + Ant Design sign-in page built by the same
 * Vite in the same run (issue 6 §6). The database does not matter here: PGlite only.
 */
export async function runWeb(smoke: boolean) {
  const stopWatchingLoad = watchLoad();
  const started = performance.now();
  const progress = (step: string) =>
    console.log(`web: ${step} (${round((performance.now() - started) / 1000, 1)} s)`);
  // The full run always builds the console, in the same run as the peer; smoke reuses an
  // up-to-date apps/web/dist. One build after the other: each takes both cores.
  const reused = smoke ? await upToDateConsoleDist() : undefined;
  const consoleSite = reused ?? (await buildConsole());
  const peerSite = await buildPeer();
  progress('built');
  const servers: { stop(): Promise<void> }[] = [];
  try {
    // The real server (PGlite, fresh data folder) serving this build, and the peer's static
    // server, both on core 1.
    const shuili = await startServer({ WEB_DIST: consoleSite.dir }, 1);
    servers.push(shuili);
    const peer = await startPeerProcess('web-static-peer.ts', { dir: peerSite.dir });
    servers.push(peer);
    progress('servers up');

    // The browser that sizes the pages is the load generator: core 0, the servers are on core 1.
    const bundles = await withPinnedSelf(0, async () => {
      const browser = await launchBrowser();
      try {
        return {
          shuiliLogin: await signInPageBundle(browser, `${shuili.url}/login`),
          shuiliWorkbench: await workbenchBundle(browser, shuili.url),
          peer: await signInPageBundle(browser, `${peer.url}/`),
        };
      } finally {
        await browser.close();
      }
    });

    progress('sized');
    const lighthouse = await lighthouseAll(shuili.url, peer.url, smoke);
    progress('lighthouse done');

    const shuiliLogin = bundleInKB(bundles.shuiliLogin);
    const peerLogin = bundleInKB(bundles.peer);
    const ratio = (ours: number, theirs: number) => round(ours / theirs);
    const vs = (preset: Preset) => {
      const ours = lighthouse[`shuili-login/${preset}`];
      const theirs = lighthouse[`peer/${preset}`];
      if (!ours || !theirs) return undefined;
      return {
        score: ratio(ours.score, theirs.score),
        lcp: ratio(ours.lcpMs, theirs.lcpMs),
        tbt: theirs.tbtMs > 0 ? ratio(ours.tbtMs, theirs.tbtMs) : null,
      };
    };
    const desktopScore = lighthouse['shuili-login/desktop']!.score;
    const summary = {
      pinned: (await canPin())
        ? 'servers on core 1, sizing browser on core 0, Lighthouse Chromium on both'
        : false,
      loadAverage1m: stopWatchingLoad(),
      build: {
        console: reused ? 'apps/web/dist (up to date, reused)' : 'built into a temporary folder',
        consoleSeconds: round(consoleSite.buildSeconds, 1),
        peerSeconds: round(peerSite.buildSeconds, 1),
      },
      bundles: {
        shuiliLogin,
        shuiliWorkbench: bundleInKB(bundles.shuiliWorkbench),
        peer: peerLogin,
      },
      lighthouse,
      ratiosToPeer: {
        loginInitialJsGzip: ratio(shuiliLogin.initialJs.gzipKB, peerLogin.initialJs.gzipKB),
        loginJsGzip: ratio(shuiliLogin.js.gzipKB, peerLogin.js.gzipKB),
        loginJsBrotli: ratio(shuiliLogin.js.brotliKB, peerLogin.js.brotliKB),
        lighthouseDesktop: vs('desktop'),
        lighthouseMobile: vs('mobile'),
      },
      goals: {
        loginInitialJsGzipKB: {
          goal: GOALS.loginInitialJsGzipKB,
          measured: shuiliLogin.initialJs.gzipKB,
          met: shuiliLogin.initialJs.gzipKB <= GOALS.loginInitialJsGzipKB,
        },
        lighthouseDesktopScore: {
          goal: GOALS.lighthouseDesktopScore,
          measured: desktopScore,
          met: desktopScore >= GOALS.lighthouseDesktopScore,
        },
      },
    };
    const file = await writeResult('web', smoke, summary);
    return { file, summary };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await consoleSite.remove();
    await peerSite.remove();
  }
}
