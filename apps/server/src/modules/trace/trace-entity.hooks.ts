import {
  newTraceCode,
  traceAreaEntity,
  traceFarmworkEntity,
  traceHarvestEntity,
  tracePackageEntity,
  tracePlantEntity,
  tracePlantingEntity,
  traceProcessEntity,
  traceProcessInputEntity,
  traceShipmentEntity,
  type EntityDef,
} from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { mergedRow } from '../monitor/entity-rows';
import { tenantTimeZone } from '../iot/telemetry/telemetry-settings';
import { polygonRing, ringMu } from './trace-geo';
import { dayStamp, randomSuffix } from './trace-ids';
import {
  checkGtin,
  checkHarvestDraw,
  checkPreHarvestInterval,
  checkProcessDraw,
  checkProcessYield,
  lockHarvest,
  lockPackage,
  lockProcess,
  refuse,
  toDate,
} from './trace-rules';

const has = (values: Row, name: string) => values[name] !== undefined;
/** An update of a row the caller cannot see: left to the generic update, which answers 404. */
const missing = (id: string | undefined, row: Row) => id !== undefined && row.id === undefined;
const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A generated number: prefix, the day in the tenant's zone, a random suffix (H20260606-7K2Q). */
async function generatedNo(ctx: EntityContext, prefix: string, at: unknown): Promise<string> {
  const day = dayStamp(present(at) ? toDate(at) : new Date(), await tenantTimeZone(ctx.sql));
  return `${prefix}${day}-${randomSuffix()}`;
}

/**
 * A recall needs its reason; its time is now unless given (set in the values written: hooks
 * fill form fields there, and answer only the columns no form sends).
 */
function recall(row: Row, values: Row): void {
  if (has(values, 'recalledAt') && present(values.recalledAt) && !present(row.recallReason))
    refuse('recallReason', 'trace.recallReasonRequired');
  if (present(values.recallReason) && !present(row.recalledAt))
    values.recalledAt = new Date().toISOString();
}

/** Plots: the outline is a GeoJSON Polygon in WGS 84; the area is computed from it unless typed. */
const areaHooks: EntityHooks = {
  beforeCreate: async (_ctx, values) => checkPlot(values),
  beforeUpdate: async (_ctx, _id, values) => checkPlot(values),
};

function checkPlot(values: Row): Row | void {
  if (!present(values.polygon)) return;
  const ring = polygonRing(String(values.polygon));
  if (!ring) return refuse('polygon', 'trace.polygon');
  if (!present(values.areaMu)) values.areaMu = ringMu(ring);
}

const plantHooks: EntityHooks = {
  beforeCreate: async (_ctx, values) => checkGtin('gtin', values.gtin),
  beforeUpdate: async (_ctx, _id, values) => checkGtin('gtin', values.gtin),
};

/** Plantings get a code when none is given. */
const plantingHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => {
    if (!present(values.plantingCode))
      values.plantingCode = await generatedNo(ctx, 'P', values.sownAt);
  },
};

/** A spraying names its pre-harvest interval. */
async function checkFarmwork(ctx: EntityContext, id: string | undefined, values: Row) {
  const work = await mergedRow(ctx.sql, traceFarmworkEntity.table, id, values);
  if (missing(id, work)) return;
  if (work.workType === 'spraying' && !present(work.phiDays))
    refuse('phiDays', 'trace.phiRequired');
}

const farmworkHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkFarmwork(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkFarmwork(ctx, id, values),
};

/**
 * Harvest batches: never before the pre-harvest interval of the plot's last spraying; never
 * below what processing and packing already took; a batch number when created.
 */
const harvestHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => {
    await checkPreHarvestInterval(ctx.sql, String(values.plantingId), toDate(values.harvestedAt));
    recall(values, values);
    return { batch_no: await generatedNo(ctx, 'H', values.harvestedAt) };
  },
  beforeUpdate: async (ctx, id, values) => {
    const row = await mergedRow(ctx.sql, traceHarvestEntity.table, id, values);
    if (missing(id, row)) return;
    if (has(values, 'plantingId') || has(values, 'harvestedAt'))
      await checkPreHarvestInterval(ctx.sql, String(row.plantingId), toDate(row.harvestedAt));
    if (has(values, 'quantity')) {
      const harvest = await lockHarvest(ctx.sql, id);
      const quantity = Number(values.quantity);
      if (harvest && harvest.taken > quantity + 1e-9)
        refuse('quantity', 'trace.harvestBelowTaken', {
          taken: String(harvest.taken),
          quantity: String(quantity),
          unit: harvest.unit,
        });
    }
    recall(row, values);
  },
};

/** Processing: output ≤ inputs × expected yield, and never below what is packed from it. */
async function checkProcess(ctx: EntityContext, id: string, values: Row) {
  const row = await mergedRow(ctx.sql, traceProcessEntity.table, id, values);
  if (missing(id, row)) return row;
  if (!has(values, 'outputQuantity') && !has(values, 'expectedYield')) return row;
  const process = await lockProcess(ctx.sql, id);
  if (!process) return row;
  const output = present(row.outputQuantity) ? Number(row.outputQuantity) : null;
  checkProcessYield(
    has(values, 'outputQuantity') ? 'outputQuantity' : 'expectedYield',
    output,
    process.input,
    Number(row.expectedYield),
    process.unit,
  );
  if (process.packed > (output ?? 0) + 1e-9)
    refuse('outputQuantity', 'trace.processBelowPacked', {
      packed: String(process.packed),
      output: String(output ?? 0),
      unit: process.unit,
    });
  return row;
}

const processHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => {
    // No inputs yet: Σ inputs × yield is 0, so only an output of 0 (or none) passes.
    checkProcessYield(
      'outputQuantity',
      present(values.outputQuantity) ? Number(values.outputQuantity) : null,
      0,
      Number(values.expectedYield),
      String(values.outputUnit ?? 'kg'),
    );
    recall(values, values);
    return { process_no: await generatedNo(ctx, 'M', values.startedAt) };
  },
  beforeUpdate: async (ctx, id, values) => {
    const row = await checkProcess(ctx, id, values);
    if (!missing(id, row)) recall(row, values);
  },
};

/**
 * A process's input: what it takes from its harvest batch fits what is left of the batch; an
 * input lowered or removed leaves the process's output within its inputs × expected yield.
 */
async function checkInput(ctx: EntityContext, id: string | undefined, values: Row) {
  const row = await mergedRow(ctx.sql, traceProcessInputEntity.table, id, values);
  if (missing(id, row)) return;
  const processId = String(row.processId);
  // The process first, then the batch: every writer takes the locks in this order.
  const process = await lockProcess(ctx.sql, processId, { inputId: id });
  const harvest = await lockHarvest(ctx.sql, String(row.harvestId), { inputId: id });
  const quantity = Number(row.quantity);
  if (harvest) checkHarvestDraw('quantity', harvest, quantity);
  if (process)
    checkProcessYield(
      'quantity',
      process.output,
      process.input + quantity,
      process.expectedYield,
      process.unit,
    );
}

const processInputHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkInput(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkInput(ctx, id, values),
  beforeDelete: async (ctx, ids) => {
    const { rows } = await ctx.sql.query<{ id: string; process_id: string }>(
      `SELECT id::text, process_id::text FROM trace_process_input WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    for (const processId of new Set(rows.map((row) => row.process_id))) {
      const leaving = rows.filter((row) => row.process_id === processId).map((row) => row.id);
      const process = await lockProcess(ctx.sql, processId);
      if (!process) continue;
      const { rows: left } = await ctx.sql.query<{ input: number }>(
        `SELECT round(coalesce(sum(quantity::numeric), 0), 3)::float8 AS input
           FROM trace_process_input WHERE process_id = $1 AND NOT (id = ANY($2::bigint[]))`,
        [processId, leaving],
      );
      checkProcessYield(
        'quantity',
        process.output,
        Number(left[0]?.input ?? 0),
        process.expectedYield,
        process.unit,
      );
    }
  },
};

/**
 * Package batches: one source; what is packed fits what the source has left (under its lock);
 * never fewer packages than shipped; the variety's GTIN and the source's number as defaults;
 * a trace code when created.
 */
async function checkPackage(ctx: EntityContext, id: string | undefined, values: Row) {
  const row = await mergedRow(ctx.sql, tracePackageEntity.table, id, values);
  if (missing(id, row)) return row;
  if (present(row.harvestId) === present(row.processId))
    refuse(present(row.processId) ? 'processId' : 'harvestId', 'trace.packageOneSource');
  checkGtin('gtin', values.gtin);
  const amounts =
    !id ||
    ['harvestId', 'processId', 'packageCount', 'netQuantity'].some((name) => has(values, name));
  if (present(row.harvestId)) {
    const harvestId = String(row.harvestId);
    if (amounts) {
      const harvest = await lockHarvest(ctx.sql, harvestId, { packageId: id });
      if (harvest)
        checkHarvestDraw(
          'packageCount',
          harvest,
          Number(row.packageCount) * Number(row.netQuantity),
        );
    }
  } else if (amounts) {
    const process = await lockProcess(ctx.sql, String(row.processId), { packageId: id });
    if (process)
      checkProcessDraw('packageCount', process, Number(row.packageCount) * Number(row.netQuantity));
  }
  if (id && has(values, 'packageCount')) {
    const packed = await lockPackage(ctx.sql, id);
    if (packed && packed.shipped > Number(values.packageCount))
      refuse('packageCount', 'trace.packageBelowShipped', {
        shipped: packed.shipped,
        count: Number(values.packageCount),
      });
  }
  if (!id || has(values, 'harvestId') || has(values, 'processId')) {
    const { rows } = await ctx.sql.query<{ gtin: string | null; lot: string | null }>(
      present(row.harvestId)
        ? `SELECT pl.gtin, h.batch_no AS lot FROM trace_harvest h
             JOIN trace_planting p ON p.id = h.planting_id
             JOIN trace_plant pl ON pl.id = p.plant_id WHERE h.id = $1`
        : `SELECT (SELECT pl.gtin FROM trace_process_input i
                     JOIN trace_harvest h ON h.id = i.harvest_id
                     JOIN trace_planting p ON p.id = h.planting_id
                     JOIN trace_plant pl ON pl.id = p.plant_id
                    WHERE i.process_id = m.id AND pl.gtin IS NOT NULL ORDER BY i.id LIMIT 1) AS gtin,
                  m.process_no AS lot
             FROM trace_process m WHERE m.id = $1`,
      [String(present(row.harvestId) ? row.harvestId : row.processId)],
    );
    const source = rows[0];
    if (!present(row.gtin) && source?.gtin) values.gtin = source.gtin;
    if (!present(row.lot) && source?.lot) values.lot = source.lot.slice(0, 20);
  }
  return row;
}

const packageHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => {
    await checkPackage(ctx, undefined, values);
    recall(values, values);
    return { trace_code: newTraceCode() };
  },
  beforeUpdate: async (ctx, id, values) => {
    const row = await checkPackage(ctx, id, values);
    if (!missing(id, row)) recall(row, values);
  },
};

/** Shipments: packages shipped never exceed packages packed (under the package batch's lock). */
async function checkShipment(ctx: EntityContext, id: string | undefined, values: Row) {
  // node-postgres sends a list as a PostgreSQL array: the column is JSON.
  if (Array.isArray(values.temperatures)) values.temperatures = JSON.stringify(values.temperatures);
  if (id && !has(values, 'packageId') && !has(values, 'packageCount')) return;
  const row = await mergedRow(ctx.sql, traceShipmentEntity.table, id, values);
  if (missing(id, row)) return;
  const found = await lockPackage(ctx.sql, String(row.packageId), id);
  if (!found) return;
  const requested = Number(row.packageCount);
  if (found.shipped + requested <= found.count) return;
  refuse('packageCount', 'trace.shipmentOverdrawn', {
    code: found.code,
    packed: found.count,
    shipped: found.shipped,
    requested,
    available: Math.max(0, found.count - found.shipped),
  });
}

const shipmentHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkShipment(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkShipment(ctx, id, values),
};

/** The traceability entities' rules around the generic entity routes, for app.ts. */
export const TRACE_ENTITY_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [traceAreaEntity, areaHooks],
  [tracePlantEntity, plantHooks],
  [tracePlantingEntity, plantingHooks],
  [traceFarmworkEntity, farmworkHooks],
  [traceHarvestEntity, harvestHooks],
  [traceProcessEntity, processHooks],
  [traceProcessInputEntity, processInputHooks],
  [tracePackageEntity, packageHooks],
  [traceShipmentEntity, shipmentHooks],
]);
