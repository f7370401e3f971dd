import type { Sql } from '../../db/database';
import { AppError, type FieldProblem } from '../../http/app-error';
import { tenantTimeZone } from '../iot/telemetry/telemetry-settings';
import { gtinCheckDigit } from '@shuili/contract';
import { minuteStamp } from './trace-ids';

/**
 * The traceability rules (docs/traceability.md "Rules"), each refused with a translated 400
 * naming the field and the figures. The mass rules read the source's totals after taking its
 * row lock (SELECT … FOR UPDATE), so two writers drawing on one harvest batch, process or package
 * batch run one after the other and the second sees the first's rows.
 */

/** Quantities are compared in grams' precision (3 decimals), as the database sums them. */
const grams = (value: number) => Math.round(value * 1000) / 1000;
const shown = (value: number) => String(grams(value));

const refuse = (field: string, key: string, params: FieldProblem['params'] = {}): never => {
  throw new AppError(400, 'validation.invalid', { fields: [{ field, key, params }] });
};

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/** The spraying that holds a harvest of a planting at a time back longest, if any does. */
export async function checkPreHarvestInterval(
  sql: Sql,
  plantingId: string,
  harvestedAt: Date,
): Promise<void> {
  // Every planting of the planting's plot: a spraying of the plot reaches every crop on it.
  const { rows } = await sql.query<{
    product: string | null;
    done_at: Date | string;
    phi_days: number;
    allowed_at: Date | string;
  }>(
    `SELECT w.product, w.done_at, w.phi_days,
            w.done_at + make_interval(days => w.phi_days) AS allowed_at
       FROM trace_farmwork w
       JOIN trace_planting p ON p.id = w.planting_id
      WHERE p.area_id = (SELECT area_id FROM trace_planting WHERE id = $1)
        AND w.work_type = 'spraying' AND w.phi_days IS NOT NULL
        AND w.done_at <= $2
        AND w.done_at + make_interval(days => w.phi_days) > $2
      ORDER BY allowed_at DESC
      LIMIT 1`,
    [plantingId, harvestedAt.toISOString()],
  );
  const spraying = rows[0];
  if (!spraying) return;
  const zone = await tenantTimeZone(sql);
  const params = {
    product: spraying.product ?? '—',
    sprayedAt: minuteStamp(toDate(spraying.done_at), zone),
    days: Number(spraying.phi_days),
    allowedAt: minuteStamp(toDate(spraying.allowed_at), zone),
  };
  throw new AppError(400, 'validation.invalid', {
    fields: [
      { field: 'harvestedAt', key: 'trace.phiNotPassed', params },
      { field: 'plantingId', key: 'trace.phiNotPassed', params },
    ],
  });
}

interface HarvestTotals {
  batchNo: string;
  quantity: number;
  unit: string;
  /** Taken by processing and packing, without the row being changed. */
  taken: number;
}

/**
 * A harvest batch under its row lock, with what processing and packing take from it, leaving
 * out one input or package (the row an update replaces).
 */
export async function lockHarvest(
  sql: Sql,
  harvestId: string,
  except: { inputId?: string; packageId?: string } = {},
): Promise<HarvestTotals | undefined> {
  const { rows } = await sql.query<{ batch_no: string | null; quantity: number; unit: string }>(
    `SELECT batch_no, quantity, coalesce(unit, 'kg') AS unit FROM trace_harvest
      WHERE id = $1 FOR UPDATE`,
    [harvestId],
  );
  const harvest = rows[0];
  if (!harvest) return undefined;
  const taken = await sql.query<{ taken: number }>(
    `SELECT round((
       coalesce((SELECT sum(i.quantity::numeric) FROM trace_process_input i
                  WHERE i.harvest_id = $1 AND ($2::bigint IS NULL OR i.id <> $2::bigint)), 0)
     + coalesce((SELECT sum(p.package_count * p.net_quantity::numeric) FROM trace_package p
                  WHERE p.harvest_id = $1 AND ($3::bigint IS NULL OR p.id <> $3::bigint)), 0)
     ), 3)::float8 AS taken`,
    [harvestId, except.inputId ?? null, except.packageId ?? null],
  );
  return {
    batchNo: harvest.batch_no ?? harvestId,
    quantity: Number(harvest.quantity),
    unit: harvest.unit,
    taken: Number(taken.rows[0]?.taken ?? 0),
  };
}

/** Refuses drawing `requested` more from a harvest batch than it has left. */
export function checkHarvestDraw(field: string, harvest: HarvestTotals, requested: number): void {
  if (grams(harvest.taken + requested) <= grams(harvest.quantity)) return;
  refuse(field, 'trace.harvestOverdrawn', {
    batch: harvest.batchNo,
    quantity: shown(harvest.quantity),
    taken: shown(harvest.taken),
    requested: shown(requested),
    available: shown(Math.max(0, harvest.quantity - harvest.taken)),
    unit: harvest.unit,
  });
}

interface ProcessTotals {
  processNo: string;
  expectedYield: number;
  output: number | null;
  unit: string;
  input: number;
  packed: number;
}

/** A process under its row lock, with its inputs and what is packed from it (less one row). */
export async function lockProcess(
  sql: Sql,
  processId: string,
  except: { inputId?: string; packageId?: string } = {},
): Promise<ProcessTotals | undefined> {
  const { rows } = await sql.query<{
    process_no: string | null;
    expected_yield: number;
    output_quantity: number | null;
    unit: string;
  }>(
    `SELECT process_no, expected_yield, output_quantity, coalesce(output_unit, 'kg') AS unit
       FROM trace_process WHERE id = $1 FOR UPDATE`,
    [processId],
  );
  const process = rows[0];
  if (!process) return undefined;
  const totals = await sql.query<{ input: number; packed: number }>(
    `SELECT round(coalesce((SELECT sum(i.quantity::numeric) FROM trace_process_input i
                             WHERE i.process_id = $1
                               AND ($2::bigint IS NULL OR i.id <> $2::bigint)), 0), 3)::float8 AS input,
            round(coalesce((SELECT sum(p.package_count * p.net_quantity::numeric)
                              FROM trace_package p
                             WHERE p.process_id = $1
                               AND ($3::bigint IS NULL OR p.id <> $3::bigint)), 0), 3)::float8 AS packed`,
    [processId, except.inputId ?? null, except.packageId ?? null],
  );
  return {
    processNo: process.process_no ?? processId,
    expectedYield: Number(process.expected_yield),
    output: process.output_quantity === null ? null : Number(process.output_quantity),
    unit: process.unit,
    input: Number(totals.rows[0]?.input ?? 0),
    packed: Number(totals.rows[0]?.packed ?? 0),
  };
}

/** Refuses an output above Σ inputs × expected yield. */
export function checkProcessYield(
  field: string,
  output: number | null,
  input: number,
  expectedYield: number,
  unit: string,
): void {
  if (output === null) return;
  const max = grams(input * expectedYield);
  if (grams(output) <= max) return;
  refuse(field, 'trace.processOverYield', {
    output: shown(output),
    input: shown(input),
    yield: String(expectedYield),
    max: shown(max),
    unit,
  });
}

/** Refuses packing `requested` more from a process than its output has left. */
export function checkProcessDraw(field: string, process: ProcessTotals, requested: number): void {
  const output = process.output ?? 0;
  if (grams(process.packed + requested) <= grams(output)) return;
  refuse(field, 'trace.processOverdrawn', {
    process: process.processNo,
    output: shown(output),
    packed: shown(process.packed),
    requested: shown(requested),
    available: shown(Math.max(0, output - process.packed)),
    unit: process.unit,
  });
}

/** A package batch under its row lock, with the packages shipped (less one shipment). */
export async function lockPackage(
  sql: Sql,
  packageId: string,
  exceptShipmentId?: string,
): Promise<{ code: string; count: number; shipped: number } | undefined> {
  const { rows } = await sql.query<{ trace_code: string; package_count: number }>(
    `SELECT trace_code, package_count FROM trace_package WHERE id = $1 FOR UPDATE`,
    [packageId],
  );
  const found = rows[0];
  if (!found) return undefined;
  const shipped = await sql.query<{ shipped: number }>(
    `SELECT coalesce(sum(package_count), 0)::int AS shipped FROM trace_shipment
      WHERE package_id = $1 AND ($2::bigint IS NULL OR id <> $2::bigint)`,
    [packageId, exceptShipmentId ?? null],
  );
  return {
    code: found.trace_code,
    count: Number(found.package_count),
    shipped: Number(shipped.rows[0]?.shipped ?? 0),
  };
}

/** Refuses a GTIN whose last digit is not its check digit, naming the right one. */
export function checkGtin(field: string, gtin: unknown): void {
  if (typeof gtin !== 'string' || gtin === '') return;
  const expected = gtinCheckDigit(gtin.slice(0, -1));
  if (Number(gtin.at(-1)) !== expected) refuse(field, 'trace.gtinCheckDigit', { expected });
}

export { refuse, toDate, grams };
