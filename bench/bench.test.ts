import { describe, expect, it } from 'vitest';
import { runIngest } from './ingest';
import { runLogin } from './login';
import { runUserList } from './user-list';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

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
      for (const step of result.shuili) expect(step.lost).toBe(0);
      // An acknowledgement means stored: every acknowledged reading's three values are there.
      expect(result.lostPoints).toBe(0);
      expect(result.browserReceived).toBe(result.acknowledgedMessages);
      expect(result.bulkInsert.pointsPerSecond).toBeGreaterThan(0);
    }
    if (summary.mosquitto) for (const step of summary.mosquitto.steps) expect(step.lost).toBe(0);
  });
});
