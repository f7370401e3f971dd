import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runSqlmap } from './sqlmap';

/** sqlmap is an optional Debian package: without it the smoke run is skipped, not failed. */
const sqlmapInstalled = spawnSync('sqlmap', ['--version'], { timeout: 30_000 }).status === 0;

// The smoke version runs with the tests so the scan keeps working: one endpoint, level 1.
describe('sqlmap scan (smoke)', () => {
  it.skipIf(!sqlmapInstalled)(
    'tests every parameter of the user list and finds nothing injectable',
    async () => {
      const { summary } = await runSqlmap(true);
      expect(summary.endpoints).toBe(1);
      expect(summary.parameters).toBeGreaterThan(3);
      expect(summary.parametersTested).toBe(summary.parameters);
      expect(summary.requests).toBeGreaterThan(100);
      expect(summary.findings).toEqual([]);
      expect(summary.serverErrorsLogged).toBe(0);
    },
    600_000,
  );
});
