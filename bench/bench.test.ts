import { describe, expect, it } from 'vitest';
import { externalIngestAvailable, runExternalIngest, runIngest } from './ingest';
import { runLogin } from './login';
import { runUserList } from './user-list';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const external = await externalIngestAvailable();

// The benchmarks' smoke versions run with the tests so they keep working; no time is asserted.
describe('benchmarks (smoke)', () => {
  it('login measures sign-ins on each database beside its argon2 peer', async () => {
    const { summary } = await runLogin(true);
    expect(summary.peer.perSecond).toBeGreaterThan(0);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      expect(result.concurrent.failures).toBe(0);
      expect(result.concurrent.perSecond).toBeGreaterThan(0);
      expect(result.singleP50Ms).toBeGreaterThan(0);
    }
  });

  it('user-list measures the user list on each database beside its SQL-only peer', async () => {
    const { summary } = await runUserList(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      for (const measured of [result.shuili, result.peer]) {
        expect(measured.map((c) => c.case)).toEqual(['first page', 'nickname filter', 'late page']);
        for (const c of measured) {
          expect(c.sequential.errors).toBe(0);
          expect(c.sequential.p50Ms).toBeGreaterThan(0);
          expect(c.concurrent.map((run) => run.connections)).toEqual([10, 50]);
          for (const run of c.concurrent) {
            expect(run.errors).toBe(0);
            expect(run.perSecond).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it('ingest stores every acknowledged reading on each database beside Mosquitto and a bare insert', async () => {
    const { summary } = await runIngest(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      expect(result.acknowledgedMessages).toBeGreaterThan(0);
      for (const step of result.shuili) expect(step.unacknowledged).toBe(0);
      // An acknowledgement means stored: every acknowledged reading is there, none twice.
      expect(result.acknowledgedNotStored).toBe(0);
      expect(result.duplicateRows).toBe(0);
      expect(result.browserReceived).toBe(result.acknowledgedMessages);
      expect(result.bulkInsert.pointsPerSecond).toBeGreaterThan(0);
    }
    if (summary.mosquitto)
      for (const step of summary.mosquitto.steps) expect(step.unacknowledged).toBe(0);
  });

  // Needs Mosquitto and PostgreSQL (the bench counts what the node stored while it runs).
  it.skipIf(!external)(
    'ingest through an external Mosquitto stores every reading the broker took',
    async () => {
      const { perNode } = await runExternalIngest(true);
      expect(perNode.nodes).toBe(1);
      expect(perNode.brokerAcknowledged).toBeGreaterThan(0);
      expect(perNode.unacknowledged).toBe(0);
      // Drained: the node stored everything the broker took, and nothing twice.
      expect(perNode.queuedAtEnd).toBe(0);
      expect(perNode.acknowledgedNotStored).toBe(0);
      expect(perNode.duplicateRows).toBe(0);
      expect(perNode.storedMessages).toBeGreaterThan(0);
    },
  );
});
