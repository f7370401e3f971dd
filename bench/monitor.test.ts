import { describe, expect, it } from 'vitest';
import { runMonitor } from './monitor';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
// Every part must have run (an endpoint answering 404 is a failure here), answers equal to the
// peer's.
describe('monitor benchmark (smoke)', () => {
  it(
    'measures the area list, its screen, the report and the overview beside their peers',
    {
      timeout: 600_000,
    },
    async () => {
      const { summary } = await runMonitor(true);
      expect(summary.results.map((result) => result.backend)).toEqual(backends);
      for (const result of summary.results) {
        expect(result.data.valves).toBe(120);
        expect(result.data.devices).toBe(300);

        const list = result.areaList;
        if ('missing' in list) throw new Error(list.missing);
        expect(list.answersEqual).toBe(true);
        expect(list.rows).toBe(50);
        expect(list.total).toBe(120);
        for (const target of [list.shuili, list.peer]) {
          expect(target.levels.map((level) => level.connections)).toEqual([1, 10]);
          for (const level of target.levels) {
            expect(level.errors).toBe(0);
            expect(level.perSecond).toBeGreaterThan(0);
            expect(level.p99Ms).toBeGreaterThan(0);
          }
        }

        const shown = result.shown;
        if ('missing' in shown) throw new Error(shown.missing);
        expect(shown.routes.map((route) => route.path)).toEqual([
          '/irrigation/irrigationDevice',
          '/iot/deviceList',
        ]);
        for (const route of shown.routes) {
          expect(route.firstVisit.count).toBe(1);
          expect(route.firstVisit.p50Ms).toBeGreaterThan(0);
          expect(route.secondVisit.p50Ms).toBeGreaterThan(0);
        }

        // The smoke run writes readings on every database.
        const report = result.report;
        if ('missing' in report) throw new Error(report.missing);
        expect(report.answersEqual).toBe(true);
        expect(report.series).toBe(5 * 3);
        expect(report.buckets).toBeGreaterThan(0);
        expect(report.shuili.count).toBe(summary.plan.report.runs);

        const overview = result.overview;
        if ('missing' in overview) throw new Error(overview.missing);
        expect(overview.answersEqual).toBe(true);
        expect(overview.shuili.count).toBe(summary.plan.overview.runs);
        expect(overview.peer.p50Ms).toBeGreaterThan(0);

        // The services alone, for the profile.
        for (const service of Object.values(result.servicesAlone))
          expect(service?.count).toBe(summary.plan.servicesRuns);
      }
    },
  );
});
