import path from 'node:path';
import { TRACE_MAP_CALLS, type TraceMap } from '@shuili/contract';
import { DEMO_ADMIN, signIn, waitForPath, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The README's screenshot of the digital map (1280×800): the demo's bases and plots in their
 * planting state's colours with their devices, one plot clicked open beside the map. Called by
 * take-screenshots.ts; `npx tsx e2e/trace-map-screenshot.ts` takes it alone.
 */
export async function traceMapScreenshot(rig: ConsoleRig, shots: string): Promise<void> {
  const { context, page } = await rig.newPage('zh-CN');
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    const answer = page.waitForResponse((response) =>
      response.url().includes(TRACE_MAP_CALLS.query),
    );
    await page.goto('/traceabilitySystem/digitalMap');
    const map = ((await (await answer).json()) as { data: TraceMap }).data;
    const plot = map.plots.find(
      (one) => one.ring && one.plantings.length > 0 && one.deviceIds.length > 0,
    );
    // Closer in on the plot's base (the demo's two bases lie kilometres apart), then the plot.
    await page.locator(`.trace-map-base-${plot!.baseId}`).click();
    const shape = page.locator(`.trace-map-plot-${plot!.id}`);
    for (let tries = 0; ((await shape.boundingBox())?.width ?? 0) < 40 && tries < 100; tries++)
      await page.waitForTimeout(100);
    await page.locator(`.trace-map-plot-${plot!.id}`).dispatchEvent('click');
    await page.locator(`[data-testid="trace-map-panel"][data-plot="${plot!.id}"]`).waitFor();
    // Tiles (when the installation has them) settle before the picture.
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.screenshot({ path: path.join(shots, 'trace-digital-map.png') });
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startConsole } = await import('@shuili/test-support/console');
  const { REPO_ROOT } = await import('../apps/server/src/config');
  const rig = await startConsole();
  try {
    await traceMapScreenshot(rig, path.join(REPO_ROOT, 'docs/screenshots'));
  } finally {
    await rig.close();
  }
}
