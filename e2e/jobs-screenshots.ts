import path from 'node:path';
import { DEMO_ADMIN, signIn, waitForPath, type ConsoleRig } from '@shuili/test-support/console';

/**
 * docs/jobs.md's screenshots (1280×800, zh): the demo's jobs with their schedules and next
 * trigger times, their instances, and the demo's night workflow run drawn node by node. Called
 * by take-screenshots.ts; `npx tsx e2e/jobs-screenshots.ts` takes them alone.
 */
export async function jobsScreenshots(rig: ConsoleRig, shots: string): Promise<void> {
  const { rows } = await rig.server.db.system((sql) =>
    sql.query<{ id: string }>(
      `SELECT w.id::text FROM workflow_instance w JOIN tenant t ON t.id = w.tenant_id
        WHERE t.tenant_code = 'demo' ORDER BY w.id LIMIT 1`,
    ),
  );
  const { context, page } = await rig.newPage('zh-CN');
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await signIn(page, DEMO_ADMIN);
    await waitForPath(page, '/home/workbench');
    const shoot = async (url: string, ready: string, file: string) => {
      await page.goto(url);
      await page.getByText(ready).first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(shots, file) });
    };
    await shoot('/jobinfo', '每日告警摘要', 'jobs-jobinfo.png');
    await shoot('/taskinstance', '每日告警摘要', 'jobs-taskinstance.png');
    await shoot(
      `/workflowinstancedetails?wfInstanceId=${rows[0]!.id}`,
      '小时汇总重算',
      'jobs-workflow-run.png',
    );
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startConsole } = await import('@shuili/test-support/console');
  const { REPO_ROOT } = await import('../apps/server/src/config');
  const rig = await startConsole();
  try {
    await jobsScreenshots(rig, path.join(REPO_ROOT, 'docs/screenshots'));
  } finally {
    await rig.close();
  }
}
