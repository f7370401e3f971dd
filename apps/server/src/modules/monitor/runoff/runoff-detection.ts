import { concentrationScale, flowScale } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import { ensurePlatformCheck } from '../../scheduler/platform-check';
import type { Processor } from '../../scheduler/scheduler.service';
import { areaSetting } from '../settings/area-setting.service';
import { runoffEventRepo, type RunoffPlotRow } from './runoff-event.repo';
import { detectRunoffEvents } from './runoff-events';

/** The scheduler kind and key of the runoff detection (one trigger, of the platform tenant). */
export const RUNOFF_DETECTION = 'sedimentFlow.runoffDetection';
export const RUNOFF_DETECTION_KEY = 'sediment-flow:runoff-detection';
const EVERY_SECONDS = 300;
/** A plot without a finished event is searched this far back. */
const FIRST_LOOK_MS = 35 * 24 * 3_600_000;

const AREA = 'sedimentFlow';
const unitOf = (plot: RunoffPlotRow, key: string) =>
  plot.thing_model?.properties?.find((property) => property.key === key)?.unit;

/**
 * Detects and stores the runoff events of one plot, from the end of its last finished event (or
 * FIRST_LOOK_MS back) to now, with its settings and its product's units. Answers how many events
 * it wrote; a plot whose flow is in no unit of flow is skipped (0).
 */
export async function detectPlot(
  sql: Sql,
  tenantId: string,
  plot: RunoffPlotRow,
  now = Date.now(),
): Promise<number> {
  const scale = flowScale(unitOf(plot, 'flow'));
  if (scale === undefined) return 0;
  const setting = async (key: string) => Number(await areaSetting(sql, plot.id, AREA, key));
  const settings = {
    area: await setting('plotArea'),
    startFlow: await setting('startFlow'),
    quietMs: (await setting('quietMinutes')) * 60_000,
    rainLeadMs: (await setting('rainLeadMinutes')) * 60_000,
    flowScale: scale,
    concentrationScale: concentrationScale(unitOf(plot, 'sedimentConcentration')) ?? 1,
  };
  const from = (await runoffEventRepo.lastEnd(sql, plot.id)) ?? new Date(now - FIRST_LOOK_MS);
  const flow = await runoffEventRepo.readings(sql, plot.id, 'flow', from);
  const rain = await runoffEventRepo.readings(
    sql,
    plot.id,
    'rainfall',
    new Date(from.getTime() - settings.rainLeadMs),
  );
  const concentration = await runoffEventRepo.readings(
    sql,
    plot.id,
    'sedimentConcentration',
    new Date(from.getTime() - 3_600_000),
  );
  const events = detectRunoffEvents(flow, rain, concentration, settings, now);
  return runoffEventRepo.store(sql, tenantId, plot.id, settings.area, from, events);
}

/** Every plot of every tenant having runoff plots, a transaction per tenant. */
export function runoffDetectionProcessor(deps: { db: Database }): Processor {
  return async () => {
    const tenants = await deps.db.system((sql) =>
      sql.query<{ tenant_id: string }>(
        `SELECT DISTINCT d.tenant_id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE p.device_kind = 'sediment_station'`,
      ),
    );
    let events = 0;
    for (const { tenant_id: tenantId } of tenants.rows)
      events += await deps.db.tenant(tenantId, async (sql) => {
        let written = 0;
        for (const plot of await runoffEventRepo.plots(sql))
          written += await detectPlot(sql, tenantId, plot);
        return written;
      });
    return { result: { decision: 'detected', tenants: tenants.rows.length, events } };
  };
}

/**
 * Registers the runoff detection and makes sure its trigger exists (every node, at start), due
 * at once: a server started on readings that hold events lists them within moments.
 */
export function registerRunoffDetection(app: FastifyInstance, deps: { db: Database }): void {
  app.scheduler.registerProcessor(RUNOFF_DETECTION, runoffDetectionProcessor(deps));
  ensurePlatformCheck(app, deps.db, {
    kind: RUNOFF_DETECTION,
    key: RUNOFF_DETECTION_KEY,
    everySeconds: EVERY_SECONDS,
    atOnce: true,
    maxAttempts: 2,
  });
}
