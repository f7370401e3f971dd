import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { telemetryUplink } from '../../iot/telemetry/telemetry-test-fixtures';
import { runsOfKey, until } from '../../scheduler/scheduler-test-kit';
import { bringDue, irrigationDevice } from '../irrigation/irrigation-test-kit';
import { DROUGHT_CHECK_KEY, DROUGHT_RULE_NAME } from './drought-warning';

describe.each(BACKENDS)('the drought warning on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  /** The drought alarms of a device (state, value, threshold), oldest first. */
  const alarmsOf = async (deviceId: string) =>
    (
      await server.db.systemStatement<{ state: string; value: number; threshold: number }>(
        `SELECT a.state, a.value, a.threshold FROM iot_alarm_record a
           JOIN iot_alarm_rule r ON r.id = a.rule_id
          WHERE a.device_id = $1 AND r.rule_name = $2 ORDER BY a.started_at`,
        [deviceId, DROUGHT_RULE_NAME],
      )
    ).rows;

  /** Runs the periodic check now and waits for it. */
  const check = async () => {
    const before = (await runsOfKey(server.db, DROUGHT_CHECK_KEY)).length;
    await bringDue(server.db, DROUGHT_CHECK_KEY);
    await until(
      () => runsOfKey(server.db, DROUGHT_CHECK_KEY),
      (runs) => runs.length === before + 1 && runs[before]!.state === 'succeeded',
      'the drought check ran',
    );
  };

  it.skipIf(!available)(
    'moisture below the threshold for the set hours raises an alarm; wet again clears it',
    async () => {
      const now = Date.now();
      const dry = await irrigationDevice(server.db, 'soil_moisture');
      const recent = await irrigationDevice(server.db, 'soil_moisture');
      const ingest = (device: typeof dry, ago: number, value: number) =>
        server.app.telemetry.ingest.handle(
          telemetryUplink(device, { ts: now - ago * 3600_000, values: { soilMoisture20: value } }),
        );
      // Defaults of the soil area: below 15 % for 24 h.
      await ingest(dry, 40, 22);
      await ingest(dry, 30, 12);
      await ingest(dry, 10, 10.5);
      await ingest(dry, 1, 9.8);
      // Dry for 5 hours only: no warning yet.
      await ingest(recent, 6, 20);
      await ingest(recent, 5, 11);
      await check();
      expect(await alarmsOf(dry.deviceId)).toEqual([{ state: 'open', value: 9.8, threshold: 15 }]);
      expect(await alarmsOf(recent.deviceId)).toEqual([]);
      // Checked again: still one alarm, not a second.
      await check();
      expect(await alarmsOf(dry.deviceId)).toHaveLength(1);
      await ingest(dry, 0, 18);
      await check();
      expect((await alarmsOf(dry.deviceId)).map((one) => one.state)).toEqual(['cleared']);
    },
  );
});
