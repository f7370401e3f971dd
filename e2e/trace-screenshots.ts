import path from 'node:path';
import type { ConsoleRig } from '@shuili/test-support/console';

/**
 * The README's screenshots of the public trace pages on a phone (375 px wide, no session): a
 * package batch of the demo in English, the recalled one in simplified Chinese, and /search.
 * Called by take-screenshots.ts; `npx tsx e2e/trace-screenshots.ts` takes them alone.
 */
export async function traceScreenshots(rig: ConsoleRig, shots: string): Promise<void> {
  const batches = await rig.server.db.system(async (sql) => {
    const { rows } = await sql.query<{ trace_code: string; recalled: boolean }>(
      `SELECT p.trace_code, trace_package_recalled(p.id) AS recalled
         FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
        WHERE t.tenant_code = 'demo' ORDER BY p.id`,
    );
    return rows;
  });
  const pages = [
    {
      locale: 'en-US',
      url: `/traceHome?code=${batches.find((b) => !b.recalled)?.trace_code}`,
      file: 'trace-home.png',
      full: true,
    },
    {
      locale: 'zh-CN',
      url: `/traceHome?code=${batches.find((b) => b.recalled)?.trace_code}`,
      file: 'trace-home-recalled-zh.png',
      full: false,
    },
    { locale: 'en-US', url: '/search', file: 'trace-search.png', full: false },
  ];
  for (const shot of pages) {
    const context = await rig.browser.newContext({
      baseURL: rig.server.url,
      locale: shot.locale,
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(shot.url);
      await page.locator(shot.url === '/search' ? '#code' : 'footer.scans').waitFor();
      await page.screenshot({ path: path.join(shots, shot.file), fullPage: shot.full });
    } finally {
      await context.close();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startConsole } = await import('@shuili/test-support/console');
  const { REPO_ROOT } = await import('../apps/server/src/config');
  const rig = await startConsole();
  try {
    await traceScreenshots(rig, path.join(REPO_ROOT, 'docs/screenshots'));
  } finally {
    await rig.close();
  }
}
