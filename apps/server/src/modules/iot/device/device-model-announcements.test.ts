import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  otherNodeDatabase,
  startTestServer,
  type TestServer,
} from '@shuili/test-support/test-server';
import type { Database } from '../../../db/database';
import { createTestDevice, TEST_THING_MODEL } from '../telemetry/telemetry-test-fixtures';
import { DeviceDirectory } from './device-directory';
import { announceDeviceModelChanges } from './device-model-announcements';

/**
 * The ingest directory across nodes (docs/scaling.md "What each node keeps to itself"): what
 * another node changes (a thing model, a new device) is read again at once, not when the
 * directory's entry expires a minute later. On PostgreSQL this node's directory is on a
 * connection of its own, as another node's is; the changes go straight to the tables, so no hook
 * of this process hears of them.
 */
describe.each(BACKENDS)('device directory across nodes on $backend', ({ backend, available }) => {
  let server: TestServer;
  let otherDb: Database;
  let directory: DeviceDirectory;
  let announcements: { start(): Promise<void>; stop(): Promise<void> };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    otherDb = await otherNodeDatabase(server);
    // An hour: only an announcement can make it read again within the test.
    directory = new DeviceDirectory(otherDb, { ttlMs: 3_600_000, missTtlMs: 3_600_000 });
    announcements = announceDeviceModelChanges(otherDb, directory);
    await announcements.start();
  }, 120_000);
  afterAll(async () => {
    await announcements?.stop();
    if (otherDb !== server?.db) await otherDb?.close();
    await server?.close();
  });

  it.skipIf(!available)('a thing model changed elsewhere is read again at once', async () => {
    const device = await createTestDevice(server.db, 'demo');
    const before = await directory.lookup(device.tenantCode, device.deviceNo);
    expect(before?.properties.has('level')).toBe(false);
    const model = {
      ...TEST_THING_MODEL,
      properties: [
        ...TEST_THING_MODEL.properties,
        {
          key: 'level',
          name: { en: 'Level', zh: '水位', tw: '水位' },
          type: 'number',
          access: 'r',
        },
      ],
    };
    await server.db.systemStatement(
      'UPDATE iot_product SET thing_model = $2::jsonb WHERE id = $1',
      [device.productId, JSON.stringify(model)],
    );
    await expect
      .poll(
        async () =>
          (await directory.lookup(device.tenantCode, device.deviceNo))?.properties.has('level'),
        { interval: 50 },
      )
      .toBe(true);
  });

  it.skipIf(!available)('a device added elsewhere is no longer "unknown" here', async () => {
    const template = await createTestDevice(server.db, 'demo');
    const deviceNo = `${template.deviceNo}-new`;
    expect(await directory.lookup(template.tenantCode, deviceNo)).toBeUndefined();
    await server.db.systemStatement(
      `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id)
       VALUES ($1, $2, 'Added elsewhere', $3)`,
      [template.tenantId, deviceNo, template.productId],
    );
    await expect
      .poll(async () => (await directory.lookup(template.tenantCode, deviceNo))?.deviceName, {
        interval: 50,
      })
      .toBe('Added elsewhere');
  });
});
