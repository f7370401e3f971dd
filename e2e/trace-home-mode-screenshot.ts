import path from 'node:path';
import { DEMO_ADMIN, signIn, waitForPath, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The README's screenshot of the public page's settings (1280×800): the form beside the preview
 * of the demo's newest batch at a phone's width. Called by take-screenshots.ts;
 * `npx tsx e2e/trace-home-mode-screenshot.ts` takes it alone.
 */
export async function traceHomeModeScreenshot(rig: ConsoleRig, shots: string): Promise<void> {
  const { context, page } = await rig.newPage('zh-CN');
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    await page.goto('/traceabilitySystem/traceHomeMode');
    const preview = page.frameLocator('[data-testid="home-mode-preview"]');
    await preview.locator('[data-source="sensor"]').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(shots, 'trace-home-mode.png') });
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startConsole } = await import('@shuili/test-support/console');
  const { REPO_ROOT } = await import('../apps/server/src/config');
  const rig = await startConsole({ config: { demoHistoryDays: 30 } });
  try {
    await traceHomeModeScreenshot(rig, path.join(REPO_ROOT, 'docs/screenshots'));
  } finally {
    await rig.close();
  }
}
