import { describe, expect, it } from 'vitest';
import { runCluster } from './cluster';

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
// Without PostgreSQL, nginx or Mosquitto the parts needing them say why they were skipped.
describe('cluster benchmark (smoke)', () => {
  it('measures the API through nginx on three nodes and on one, live browsers, and telemetry bytes per reading', async () => {
    const { summary } = await runCluster(true);
    if ('skipped' in summary.api) {
      expect(summary.api.skipped).toMatch(/TEST_DATABASE_URL|nginx|Mosquitto|PostgreSQL/);
    } else {
      for (const { all, one } of summary.api.rounds) {
        expect(all.nodes).toBe(summary.plan.nodes);
        expect(one.nodes).toBe(1);
        for (const step of [all, one]) {
          expect(step.errors).toBe(0);
          expect(step.perSecond).toBeGreaterThan(0);
          expect(step.cpu.percentOfCore['load generator']).toBeGreaterThan(0);
        }
        expect(Object.keys(all.cpu.percentOfCore)).toContain(`node${summary.plan.nodes}`);
      }
      expect(summary.api.threeOverOne).toBeGreaterThan(0);
      // Browsers through nginx received the devices' readings, stored and relayed by the nodes.
      for (const step of summary.api.browsers.steps) {
        expect(step.acknowledged).toBeGreaterThan(0);
        expect(step.delay.count).toBeGreaterThan(0);
        expect(step.browserConnectionsLost).toBe(0);
      }
    }
    if ('skipped' in summary.storage) return;
    const { storage, capacity } = summary;
    const { tenants, devicesPerTenant, hours } = summary.plan.storage;
    // Every reading the writer was given is in the month partition, the rollup has its hours.
    expect(storage.afterVacuum.partition.rows).toBe(tenants * devicesPerTenant * 3 * hours * 60);
    expect(storage.afterVacuum.hourly.rows).toBe(tenants * devicesPerTenant * 3 * hours);
    expect(storage.bytesPerReading.partition.total).toBeGreaterThan(0);
    expect(storage.retention.deletedReadings).toBe(devicesPerTenant * 3 * 60);
    expect(capacity!.scenarios.length).toBeGreaterThan(0);
  }, 300_000);
});
