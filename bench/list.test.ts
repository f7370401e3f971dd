import { describe, expect, it } from 'vitest';
import { runList } from './list';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
describe('list benchmark (smoke)', () => {
  it('measures the device list on each database beside its SQL-only peer and Fastify hello', async () => {
    const { summary } = await runList(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      for (const measured of [result.shuili, result.peer, result.fastifyHello]) {
        expect(measured.alone.errors).toBe(0);
        expect(measured.alone.p50Ms).toBeGreaterThan(0);
        expect(measured.loaded.connections).toBe(50);
        expect(measured.loaded.errors).toBe(0);
        expect(measured.loaded.perSecond).toBeGreaterThan(0);
      }
      expect(result.shuiliOverPeer.perSecond).toBeGreaterThan(0);
      expect(result.shuiliOverFastifyHello.perSecond).toBeGreaterThan(0);
    }
  });
});
