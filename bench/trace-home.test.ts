import { expect, it } from 'vitest';
import { runTraceHome } from './trace-home';

// The smoke version runs with the tests so the benchmark keeps working; no size or time is
// asserted, only that everything was measured.
it('trace-home sizes the public trace page and runs Lighthouse mobile once beside the peer', async () => {
  const { summary } = await runTraceHome(true);
  expect(summary.bundles.traceHome.js.files).toBeGreaterThanOrEqual(1);
  expect(summary.bundles.traceHome.js.gzipKB).toBeGreaterThan(0);
  for (const name of ['shuili-traceHome/mobile', 'peer-static/mobile']) {
    const run = summary.lighthouse[name]!;
    expect(run.runs).toBe(1);
    expect(run.score).toBeGreaterThanOrEqual(0);
    expect(run.score).toBeLessThanOrEqual(100);
    expect(run.lcpMs).toBeGreaterThan(0);
  }
}, 600_000);
