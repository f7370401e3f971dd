import { expect, it } from 'vitest';
import { runWeb } from './web';

// The smoke version runs with the tests so the benchmark keeps working; no size or time is
// asserted, only that everything was measured.
it('web sizes the sign-in route, the workbench and the peer page, and runs Lighthouse once', async () => {
  const { summary } = await runWeb(true);
  for (const bundle of Object.values(summary.bundles)) {
    expect(bundle.initialJs.gzipKB).toBeGreaterThan(0);
    expect(bundle.initialJs.brotliKB).toBeGreaterThan(0);
    expect(bundle.js.files).toBeGreaterThanOrEqual(bundle.initialJs.files);
    expect(bundle.js.sentKB).toBeGreaterThan(0);
  }
  const login = summary.lighthouse['shuili-login/desktop']!;
  expect(login.runs).toBe(1);
  expect(login.score).toBeGreaterThanOrEqual(0);
  expect(login.score).toBeLessThanOrEqual(100);
  expect(login.lcpMs).toBeGreaterThan(0);
  expect(login.tbtMs).toBeGreaterThanOrEqual(0);
});
