// For the profile: the server's own services behind the three calls, run in the benchmark
// process on its database connections, as demo's admin (ROLE_ADMIN: every grant). What a call
// takes beyond its service is the HTTP side: routing, the token and session checks, validation
// of the query and of the answer, JSON.
import type { AreaReportQuery } from '@shuili/contract';
import type { Database } from '../../apps/server/src/db/database';
import type { FieldGrants } from '../../apps/server/src/entity/field-grants';
import type { AuthContext } from '../../apps/server/src/http/request-context';
import { TelemetryQueryService } from '../../apps/server/src/modules/iot/telemetry/telemetry-query.service';
import { AreaDeviceService } from '../../apps/server/src/modules/monitor/area-device.service';
import { AreaReportService } from '../../apps/server/src/modules/monitor/report/area-report.service';
import { WorkbenchService } from '../../apps/server/src/modules/monitor/workbench/workbench.service';
import { latencySummary } from './stats';

/** ROLE_ADMIN holds every URL of its tenant. */
const ALL_GRANTED: FieldGrants = { allows: async () => true };

/** demo's admin as a request's AuthContext (unconfined: every zone and project). */
async function demoAdmin(db: Database, tenantId: string): Promise<AuthContext> {
  const { rows } = await db.system((sql) =>
    sql.query<{ id: string }>(
      `SELECT id::text FROM sys_user WHERE tenant_id = $1 AND username = 'admin'`,
      [tenantId],
    ),
  );
  return {
    userId: rows[0]!.id,
    username: 'admin',
    tenantId,
    tenantCode: 'demo',
    roles: ['ROLE_ADMIN'],
    activeRole: 'ROLE_ADMIN',
    sessionId: 'bench',
    zoneIds: null,
    projectIds: null,
  };
}

async function timed(runs: number, work: () => Promise<unknown>) {
  const times: number[] = [];
  for (let run = -1; run < runs; run += 1) {
    const t0 = performance.now();
    await work();
    if (run >= 0) times.push(performance.now() - t0);
  }
  return latencySummary(times);
}

/** The services of the calls that ran (undefined: not measured), `runs` times each. */
export async function servicesAlone(
  db: Database,
  tenantId: string,
  runs: number,
  calls: { areaList: boolean; report: AreaReportQuery | undefined; overview: boolean },
) {
  const auth = await demoAdmin(db, tenantId);
  const devices = new AreaDeviceService(db, ALL_GRANTED);
  const reports = new AreaReportService(db, new TelemetryQueryService(db));
  const workbench = new WorkbenchService(db, ALL_GRANTED);
  const report = calls.report;
  return {
    areaList: calls.areaList
      ? await timed(runs, () =>
          devices.page(auth, { area: 'irrigation', currentPage: 1, pageSize: 50 }),
        )
      : undefined,
    report: report ? await timed(runs, () => reports.report(auth, report)) : undefined,
    overview: calls.overview ? await timed(runs, () => workbench.overview(auth)) : undefined,
  };
}
