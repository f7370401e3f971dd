import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Database } from '../../../db/database';
import { createTestDevice } from '../telemetry/telemetry-test-fixtures';
import { DeviceDirectory } from './device-directory';

/**
 * A node meeting many devices at once (its start, a broker's queue drained after an outage)
 * reads them together: one query per turn of the event loop, not one transaction per device,
 * which took every pooled connection and made ingestion retry ("every database connection is
 * busy").
 */
describe('device directory lookups', () => {
  let server: TestServer;
  let transactions = 0;
  let directory: DeviceDirectory;

  beforeAll(async () => {
    server = await startTestServer();
    const counting: Database = Object.create(server.db) as Database;
    counting.system = (work) => {
      transactions += 1;
      return server.db.system(work);
    };
    directory = new DeviceDirectory(counting);
  }, 120_000);
  afterAll(() => server?.close());

  it('reads the identities asked together in one transaction, known and unknown alike', async () => {
    const devices = await Promise.all(
      Array.from({ length: 30 }, () => createTestDevice(server.db, 'demo')),
    );
    transactions = 0;
    const [entries, missing, otherTenant] = await Promise.all([
      Promise.all(devices.map((device) => directory.lookup('demo', device.deviceNo))),
      directory.lookup('demo', 'no-such-device'),
      // A device number of demo asked under another tenant is not demo's device.
      directory.lookup('acme', devices[0]!.deviceNo),
    ]);
    expect(transactions).toBe(1);
    expect(entries.map((entry) => entry?.deviceId)).toEqual(devices.map((d) => d.deviceId));
    expect(entries.every((entry) => entry?.tenantCode === 'demo')).toBe(true);
    expect(missing).toBeUndefined();
    expect(otherTenant).toBeUndefined();

    // Remembered afterwards: asking again reads nothing.
    await Promise.all(devices.map((device) => directory.lookup('demo', device.deviceNo)));
    expect(transactions).toBe(1);
  });
});
