import { seedDemoWorkflow } from '../../modules/jobs/workflow/workflow-demo';
import { seedDemoJobs } from './demo-jobs';
import type { FileStorage } from '../../modules/files/file-storage';
import type { Sql } from '../database';
import { seedDemoDataPermission, seedDemoPostsAndParams } from './demo-admin';
import { seedDemoBilling } from './demo-billing';
import { seedDemoBindings } from './demo-bindings';
import { seedDemoFiles } from './demo-files';
import { seedDemoInsects } from './demo-insects';
import { seedDemoLed } from './demo-led';
import { seedDemoMonitoring } from './demo-monitoring';
import { seedDemoCameras } from './demo-cameras';
import { seedDemoRecords } from './demo-records';
import { seedDemoTrace } from './demo-trace';
import { seedDemoTracePhotos } from './demo-trace-photos';

/**
 * Rows for the screens a fresh demo would show empty (posts, parameters, data permissions,
 * sensors and controllers, device files and images, operation records, the monitoring areas'
 * rules, alarms, valve groups, schedules, recipes and programs), so a new user sees
 * each one working. Runs once, when the demo tenant is created (seed.ts): what users delete
 * later stays deleted. `demo` is the Chinese district with devices; `acme` gets its posts and
 * parameters in English.
 */
export async function seedDemoScreens(
  sql: Sql,
  tenant: { tenantCode: string; tenantId: string; userIds: string[] },
  storage: FileStorage,
): Promise<void> {
  const { tenantCode, tenantId, userIds } = tenant;
  const demo = tenantCode === 'demo';
  await seedDemoPostsAndParams(sql, tenantId, demo ? 'zh' : 'en', demo);
  if (!demo) return;
  await seedDemoDataPermission(sql, tenantId);
  await seedDemoBindings(sql, tenantId);
  await seedDemoFiles(sql, tenantId, storage, userIds[0]);
  // The species catalogue and the traps' tray photos (after the files: the newest come last).
  await seedDemoInsects(sql, tenantId, storage, userIds[0]);
  await seedDemoRecords(sql, tenantId, userIds);
  await seedDemoMonitoring(sql, tenantId, userIds);
  await seedDemoLed(sql, tenantId, userIds[0]);
  await seedDemoCameras(sql, tenantId);
  // Card-swipe billing: prices, households and cards, wells, water rights, recharges.
  await seedDemoBilling(sql, tenantId, userIds);
  // Farm traceability: producer, bases, plots, plantings to package batches and shipments.
  await seedDemoTrace(sql, tenantId, userIds);
  // Photos of its bases and of some growth records.
  await seedDemoTracePhotos(sql, tenantId, storage, userIds[0]);
  // The job scheduler: the district's routines on the built-in processors, with their past runs.
  const jobIds = await seedDemoJobs(sql, tenantId, userIds);
  await seedDemoWorkflow(sql, tenantId, jobIds);
}
