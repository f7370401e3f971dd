import { afterAll, describe, expect, it } from 'vitest';
import { createFreshTarget } from '@shuili/test-support/database-target';
import { prepareDevices } from '@shuili/test-support/ingest-data';
import { startIotServer, type RunningIotServer } from '@shuili/test-support/iot-server';
import { BACKENDS } from '@shuili/test-support/test-server';
import { killHard, waitFor } from './process-kill';
import { ledger, storedReadings } from './stored-readings';
import { TrackedDevices } from './tracked-devices';

/** Devices publishing, and readings acknowledged before the kill (then a random moment more). */
const DEVICES = 12;
const ACKED_BEFORE_KILL = 400;

/**
 * Fault 1 (issue 7 part 4): kill -9 the server while devices publish QoS 1 telemetry to its
 * embedded broker, restart it on the same database, and check that every reading a device got a
 * PUBACK for is stored. The embedded broker's restart is this server restart.
 */
describe.each(BACKENDS)('kill -9 during QoS 1 ingestion ($backend)', ({ backend, available }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it.skipIf(!available)(
    'every acknowledged reading is stored after a restart',
    async () => {
      const { target, remove } = await createFreshTarget(backend);
      cleanups.push(remove);
      const devices = await prepareDevices(target, DEVICES);
      let server: RunningIotServer = await startIotServer(target);
      cleanups.push(() => server.stop());
      const load = new TrackedDevices(server.mqttUrl, devices, { window: 4 });
      cleanups.push(() => load.close());
      await load.run();

      await waitFor(
        `${ACKED_BEFORE_KILL} acknowledgements`,
        () => load.acknowledged.size >= ACKED_BEFORE_KILL,
      );
      // A random moment mid-stream: anywhere within the next flushes.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
      await killHard(server.pid);
      const inFlightAtKill = load.inFlight;
      await load.close();

      // The same database: PGlite must recover from its WAL, PostgreSQL from its own.
      server = await startIotServer(target);
      const health = (await fetch(`${server.url}/api/health`).then((r) => r.json())) as {
        data: { database: string };
      };
      expect(health.data.database).toBe('up');
      await server.stop();

      const counts = ledger(load.acknowledged, load.published, await storedReadings(target));
      console.log(
        `fault kill -9 ingest (${backend}): ${JSON.stringify({ ...counts, inFlightAtKill })}`,
      );
      expect(counts.acknowledged).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);
      expect(counts.firstLost).toEqual([]);
      expect(counts.lost).toBe(0);
    },
    180_000,
  );
});
