import { describe, expect, it } from 'vitest';
import { runLogin } from './login';

// The benchmarks' smoke versions run with the tests so they keep working; no time is asserted.
describe('benchmarks (smoke)', () => {
  it('login measures sign-ins on each database beside its argon2 peer', async () => {
    const { summary } = await runLogin(true);
    expect(summary.peer.perSecond).toBeGreaterThan(0);
    expect(summary.results.map((result) => result.backend)).toEqual(
      process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'],
    );
    for (const result of summary.results) {
      expect(result.concurrent.failures).toBe(0);
      expect(result.concurrent.perSecond).toBeGreaterThan(0);
      expect(result.singleP50Ms).toBeGreaterThan(0);
    }
  });
});
