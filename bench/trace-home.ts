import fs from 'node:fs/promises';
import path from 'node:path';
import { entityCalls, tracePackageEntity } from '@shuili/contract';
import { launchBrowser } from '@shuili/test-support/browser';
import {
  canPin,
  REPO_ROOT,
  startServer,
  withPinnedSelf,
} from '@shuili/test-support/server-process';
import { signIn } from '@shuili/test-support/sign-in';
import { build } from 'vite';
import { watchLoad } from './lib/machine-load';
import { startPeerProcess } from './lib/peer-process';
import { writeResult } from './lib/results';
import { round } from './lib/stats';
import { buildConsole, upToDateConsoleDist, type BuiltSite } from './lib/web-build';
import { recordBundle, transferInKB, type RouteBundle } from './lib/web-bundle';
import {
  launchLighthouseChromium,
  lighthouseRun,
  summarise,
  type LighthouseRun,
} from './lib/web-lighthouse';

/** Issue 21's goals for the public page: Lighthouse mobile >= 90, JavaScript <= 60 KB gzip. */
const GOALS = { jsGzipKB: 60, lighthouseMobileScore: 90 };

const bundleInKB = (bundle: RouteBundle) => ({
  js: transferInKB(bundle.js),
  css: transferInKB(bundle.css),
  jsFiles: bundle.jsFiles,
  cssFiles: bundle.cssFiles,
});

/**
 * The console and the public trace page, as `npm run build -w @shuili/web` makes them: smoke
 * reuses an up-to-date apps/web/dist that has the trace page; otherwise both are built into a
 * temporary folder, the trace page by its own config after the console.
 */
async function builtSite(smoke: boolean): Promise<BuiltSite & { reused: boolean }> {
  const reused = smoke ? await upToDateConsoleDist() : undefined;
  if (reused) {
    const hasPage = await fs.stat(path.join(reused.dir, 'trace-home.html')).then(
      () => true,
      () => false,
    );
    if (hasPage) return { ...reused, reused: true };
  }
  const site = await buildConsole();
  const started = performance.now();
  await build({
    configFile: path.join(REPO_ROOT, 'apps/web/vite.trace-home.config.ts'),
    logLevel: 'warn',
    build: { outDir: site.dir, emptyOutDir: false },
  });
  return {
    ...site,
    buildSeconds: site.buildSeconds + (performance.now() - started) / 1000,
    reused: false,
  };
}

/** A code of the demo district's package batches, as its administrator lists them. */
async function demoTraceCode(url: string): Promise<string> {
  const token = await signIn(url);
  const answer = await fetch(
    `${url}${entityCalls(tracePackageEntity).query}?currentPage=1&pageSize=10`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const body = (await answer.json()) as { data?: { list?: { traceCode: string }[] } };
  const code = body.data?.list?.[0]?.traceCode;
  if (!code) throw new Error(`the demo data has no package batch (${answer.status})`);
  return code;
}

/**
 * The public trace page (/traceHome?code=…, issue 21 "Performance"): the JavaScript and CSS it
 * downloads (gzip and brotli as a static-file compressor makes them), and Lighthouse 12's mobile
 * preset (simulated slow 4G, 4× CPU slowdown, a phone's screen) on it and on a bare static page
 * of about its first screen served the same way, in turns. Smoke: one run each.
 */
export async function runTraceHome(smoke: boolean) {
  const stopWatchingLoad = watchLoad();
  const site = await builtSite(smoke);
  const servers: { stop(): Promise<void> }[] = [];
  try {
    const shuili = await startServer({ WEB_DIST: site.dir, SIM: '0' }, 1);
    servers.push(shuili);
    const peer = await startPeerProcess('web-static-peer.ts', {
      dir: path.join(REPO_ROOT, 'bench/peers/static-page'),
    });
    servers.push(peer);
    const code = await demoTraceCode(shuili.url);
    const pageUrl = `${shuili.url}/traceHome?code=${code}`;

    // The browser that sizes the page is the load generator: core 0, the servers are on core 1.
    // (The peer has no script and no stylesheet file: nothing to size.)
    const shuiliBundle = await withPinnedSelf(0, async () => {
      const browser = await launchBrowser();
      try {
        const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
        const page = await context.newPage();
        const recorded = recordBundle(page);
        await page.goto(pageUrl, { waitUntil: 'networkidle' });
        await page.locator('footer.scans').waitFor();
        return await recorded.measure();
      } finally {
        await browser.close();
      }
    });

    const runs = smoke ? 1 : 5;
    const chromium = await launchLighthouseChromium();
    const results = new Map<string, LighthouseRun[]>();
    try {
      for (let run = 0; run < runs; run += 1)
        for (const [name, url] of [
          ['shuili-traceHome', pageUrl],
          ['peer-static', `${peer.url}/`],
        ] as const) {
          const measured = await lighthouseRun(chromium.port, url, 'mobile');
          console.log(`lighthouse ${name}/mobile ${run + 1}/${runs}: score ${measured.score}`);
          results.set(name, [...(results.get(name) ?? []), measured]);
        }
    } finally {
      chromium.kill();
    }
    const lighthouse = Object.fromEntries(
      [...results].map(([name, measured]) => [`${name}/mobile`, summarise(measured)]),
    );
    const ours = lighthouse['shuili-traceHome/mobile']!;
    const theirs = lighthouse['peer-static/mobile']!;
    const page = bundleInKB(shuiliBundle);
    const summary = {
      pinned: (await canPin())
        ? 'servers on core 1, sizing browser on core 0, Lighthouse Chromium on both'
        : false,
      loadAverage1m: stopWatchingLoad(),
      build: {
        site: site.reused ? 'apps/web/dist (up to date, reused)' : 'built into a temporary folder',
        seconds: round(site.buildSeconds, 1),
      },
      page: '/traceHome?code=<a demo package batch>',
      bundles: { traceHome: page },
      lighthouse,
      ratiosToPeer: {
        score: round(ours.score / theirs.score),
        fcp: round(ours.fcpMs / theirs.fcpMs),
        lcp: round(ours.lcpMs / theirs.lcpMs),
      },
      goals: {
        jsGzipKB: {
          goal: GOALS.jsGzipKB,
          measured: page.js.gzipKB,
          met: page.js.gzipKB <= GOALS.jsGzipKB,
        },
        lighthouseMobileScore: {
          goal: GOALS.lighthouseMobileScore,
          measured: ours.score,
          met: ours.score >= GOALS.lighthouseMobileScore,
        },
      },
    };
    const file = await writeResult('trace-home', smoke, summary);
    return { file, summary };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    if (!site.reused) await site.remove();
  }
}
