import { isoInTimeZone, packageDigitalLink, type TraceChainView } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { traceReads, type OriginRow } from '../trace-reads';
import { chainRepo, type ChainStart } from './chain.repo';

const DAY_MS = 86_400_000;
const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** The temperatures recorded on a shipment as stored: entries without a time or a number are left out. */
export function temperaturesOf(recorded: unknown): Array<{ at: string; celsius: number }> {
  if (!Array.isArray(recorded)) return [];
  return recorded.flatMap((one: unknown) => {
    if (!one || typeof one !== 'object') return [];
    const { at, celsius } = one as { at?: unknown; celsius?: unknown };
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return [];
    if (typeof celsius !== 'number' || !Number.isFinite(celsius)) return [];
    return [{ at: new Date(at).toISOString(), celsius }];
  });
}

/** One of each, by id, in the order first met. */
function unique<T extends { id: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

export interface ChainRead {
  view: TraceChainView;
  /** The harvest batches with where they grew (the labels and certificate print from them). */
  origins: OriginRow[];
  timeZone: string;
}

/**
 * The chain of one batch as the resume draws it (TraceChainView): every node read in the
 * tenant's transaction, each with its key figures and recall state. The farm work and growth
 * records are the plantings' up to their last harvest in the chain; a spraying's interval is
 * respected when every such harvest of its planting came after it had passed.
 */
export async function readChain(sql: Sql, start: ChainStart): Promise<ChainRead> {
  const timeZone = await tenantTimeZone(sql);
  const ids = await chainRepo.chainIds(sql, start);
  const origins = await traceReads.origins(sql, {
    harvestIds: ids.harvestIds,
    processIds: ids.processIds,
  });
  const plantingIds = [...new Set(origins.map((row) => row.planting_id))];
  const lastHarvest = new Map<string, Date>();
  for (const row of origins) {
    const known = lastHarvest.get(row.planting_id);
    if (!known || row.harvested_at > known) lastHarvest.set(row.planting_id, row.harvested_at);
  }
  const beforeHarvest = (plantingId: string, at: Date) => at <= lastHarvest.get(plantingId)!;
  const work = (await traceReads.farmwork(sql, plantingIds)).filter((one) =>
    beforeHarvest(one.planting_id, one.done_at),
  );
  const growth = (await chainRepo.growthRecords(sql, plantingIds)).filter((one) =>
    beforeHarvest(one.planting_id, one.recorded_at),
  );
  const processes = await traceReads.processes(sql, ids.processIds);
  const inputs = await chainRepo.processInputs(sql, ids.processIds);
  const packages = await traceReads.packages(sql, ids.packageIds);
  const shipments = await traceReads.shipments(sql, ids.packageIds);
  const recalledPackages = new Set(packages.filter((pkg) => pkg.recalled).map((pkg) => pkg.id));

  const number =
    start.kind === 'harvest'
      ? origins.find((row) => row.harvest_id === start.id)?.batch_no
      : start.kind === 'process'
        ? processes.find((row) => row.id === start.id)?.process_no
        : packages.find((row) => row.id === start.id)?.trace_code;

  const view: TraceChainView = {
    start: { ...start, number: number ?? start.id },
    producers: unique(
      origins.map((row) => ({
        id: row.producer_id,
        name: row.producer_name,
        code: row.producer_code,
        certLanguage: row.cert_language,
      })),
    ),
    bases: unique(
      origins.map((row) => ({
        id: row.base_id,
        name: row.base_name,
        village: row.village,
        address: row.base_address,
        producerId: row.producer_id,
      })),
    ),
    plots: unique(
      origins.map((row) => ({
        id: row.area_id,
        name: row.area_name,
        areaMu: row.area_mu,
        soil: row.soil,
        baseId: row.base_id,
      })),
    ),
    plants: unique(
      origins.map((row) => ({
        id: row.plant_id,
        cropName: row.crop_name,
        variety: row.variety,
        gtin: row.plant_gtin,
      })),
    ),
    plantings: unique(
      origins.map((row) => ({
        id: row.planting_id,
        plantingCode: row.planting_code,
        plotId: row.area_id,
        plantId: row.plant_id,
        sownAt: row.sown_at.toISOString(),
        expectedHarvestAt: iso(row.expected_harvest_at),
        state: row.planting_state,
      })),
    ),
    growthRecords: growth.map((row) => ({
      id: row.id,
      plantingId: row.planting_id,
      recordedAt: row.recorded_at.toISOString(),
      stage: row.stage,
      note: row.note,
    })),
    farmwork: work.map((row) => {
      const allowedFrom =
        row.phi_days === null ? null : new Date(row.done_at.getTime() + row.phi_days * DAY_MS);
      const harvests = origins.filter(
        (origin) => origin.planting_id === row.planting_id && origin.harvested_at >= row.done_at,
      );
      return {
        id: row.id,
        plantingId: row.planting_id,
        workType: row.work_type,
        product: row.product,
        dose: row.dose,
        doseUnit: row.dose_unit,
        operator: row.operator,
        doneAt: row.done_at.toISOString(),
        phiDays: row.phi_days,
        allowedFrom: iso(allowedFrom),
        respected:
          allowedFrom === null || harvests.length === 0
            ? null
            : harvests.every((origin) => origin.harvested_at >= allowedFrom),
      };
    }),
    harvests: origins.map((row) => ({
      id: row.harvest_id,
      batchNo: row.batch_no,
      plantingId: row.planting_id,
      harvestedAt: row.harvested_at.toISOString(),
      quantity: row.quantity,
      unit: row.unit ?? 'kg',
      grade: row.grade,
      takenQuantity: row.taken_quantity,
      recalled: row.harvest_recalled_at !== null,
      recalledAt: iso(row.harvest_recalled_at),
      recallReason: row.harvest_recall_reason,
    })),
    processes: processes.map((row) => ({
      id: row.id,
      processNo: row.process_no,
      processType: row.process_type,
      startedAt: row.started_at.toISOString(),
      endedAt: iso(row.ended_at),
      expectedYield: row.expected_yield,
      inputs: inputs
        .filter((input) => input.process_id === row.id)
        .map((input) => ({ harvestId: input.harvest_id, quantity: input.quantity })),
      inputQuantity: row.input_quantity,
      outputQuantity: row.output_quantity,
      unit: row.output_unit ?? 'kg',
      packedQuantity: row.packed_quantity,
      recalled: row.recalled,
      recalledAt: iso(row.recalled_at),
      recallReason: row.recall_reason,
    })),
    packages: packages.map((row) => ({
      id: row.id,
      traceCode: row.trace_code,
      harvestId: row.harvest_id,
      processId: row.process_id,
      gtin: row.gtin,
      lot: row.lot,
      packageCount: row.package_count,
      netQuantity: row.net_quantity,
      unit: row.unit ?? 'kg',
      packedAt: row.packed_at.toISOString(),
      bestBefore: iso(row.best_before),
      shippedCount: row.shipped_count,
      scanCount: row.scan_count,
      digitalLink:
        packageDigitalLink({
          gtin: row.gtin,
          lot: row.lot,
          traceCode: row.trace_code,
          bestBefore: row.best_before
            ? isoInTimeZone(row.best_before, timeZone).slice(0, 10)
            : null,
        }) ?? null,
      recalled: row.recalled,
      recalledAt: iso(row.recalled_at),
      recallReason: row.recall_reason,
    })),
    shipments: shipments.map((row) => {
      const temperatures = temperaturesOf(row.temperatures);
      const values = temperatures.map((one) => one.celsius);
      return {
        id: row.id,
        packageId: row.package_id,
        packageCount: row.package_count,
        carrier: row.carrier,
        vehicle: row.vehicle,
        fromPlace: row.from_place,
        toPlace: row.to_place,
        departedAt: row.departed_at.toISOString(),
        arrivedAt: iso(row.arrived_at),
        temperatures,
        minCelsius: values.length ? Math.min(...values) : null,
        maxCelsius: values.length ? Math.max(...values) : null,
        recalled: recalledPackages.has(row.package_id),
      };
    }),
  };
  return { view, origins, timeZone };
}
