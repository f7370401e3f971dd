import path from 'node:path';
import { DEMO_ADMIN, signIn, waitForPath, type ConsoleRig } from '@shuili/test-support/console';

/**
 * The README's screenshot of a batch's resume (1280×800): the demo's milled flour, backwards to
 * its wheat plot and farm work, forwards to its packing and shipment. Called by
 * take-screenshots.ts; `npx tsx e2e/trace-resume-screenshot.ts` takes it alone.
 */
export async function traceResumeScreenshot(rig: ConsoleRig, shots: string): Promise<void> {
  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ code: string }>(
      `SELECT p.trace_code AS code FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
        WHERE t.tenant_code = 'demo' AND p.process_id IS NOT NULL ORDER BY p.packed_at LIMIT 1`,
    ),
  );
  const { context, page } = await rig.newPage('zh-CN');
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    await page.goto(`/traceabilitySystem/resume?code=${rows[0]!.code}`);
    await page.getByTestId('resume-node-shipment').first().waitFor();
    await page.screenshot({ path: path.join(shots, 'trace-resume.png') });
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startConsole } = await import('@shuili/test-support/console');
  const { REPO_ROOT } = await import('../apps/server/src/config');
  const rig = await startConsole();
  try {
    await traceResumeScreenshot(rig, path.join(REPO_ROOT, 'docs/screenshots'));
  } finally {
    await rig.close();
  }
}
