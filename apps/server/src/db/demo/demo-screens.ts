import type { FileStorage } from '../../modules/files/file-storage';
import type { Sql } from '../database';
import { seedDemoDataPermission, seedDemoPostsAndParams } from './demo-admin';
import { seedDemoBindings } from './demo-bindings';
import { seedDemoFiles } from './demo-files';
import { seedDemoMonitoring } from './demo-monitoring';
import { seedDemoRecords } from './demo-records';

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
  await seedDemoRecords(sql, tenantId, userIds);
  await seedDemoMonitoring(sql, tenantId, userIds);
}
