import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { CashReportService } from './cash-report.service';
import { LedgerChecksService } from './ledger-checks.service';
import { ReconciliationService } from './reconciliation.service';
import { billingReportRoutes } from './reports.routes';
import { RevenueService } from './revenue.service';
import { registerStatDays } from './stat-days.job';
import { StatisticsService } from './statistics.service';

/** The money reports of card-swipe billing (read only: they post nothing). */
export async function registerBillingReports(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  await app.register(billingReportRoutes, {
    cash: new CashReportService(deps.db),
    statistics: new StatisticsService(deps.db),
    revenue: new RevenueService(deps.db),
    reconciliation: new ReconciliationService(deps.db),
    checks: new LedgerChecksService(deps.db),
  });
  // Closed days summed ahead of the statistics that read them (hourly, every tenant).
  registerStatDays(app, deps);
}
