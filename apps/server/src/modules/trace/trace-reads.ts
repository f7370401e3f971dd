import type { Sql } from '../../db/database';

/**
 * Reads of a batch's chain shared by the public page (public/public-trace.repo.ts) and the
 * resume (chain/): package batches, the harvest batches they come from with their planting,
 * variety, plot, base and producer, farm work, processes and shipments. Each runs in the
 * tenant's transaction, so row-level security keeps every other tenant's rows out; the recall
 * state is the database's (trace_*_recalled: computed forwards, never copied).
 */

export interface PackageDetailRow {
  id: string;
  trace_code: string;
  harvest_id: string | null;
  process_id: string | null;
  gtin: string | null;
  lot: string | null;
  package_count: number;
  net_quantity: number;
  unit: string | null;
  packed_at: Date;
  best_before: Date | null;
  /** Recalled itself or through its source. */
  recalled: boolean;
  recalled_at: Date | null;
  recall_reason: string | null;
  shipped_count: number;
  scan_count: number;
}

export interface OriginRow {
  harvest_id: string;
  batch_no: string | null;
  harvested_at: Date;
  quantity: number;
  unit: string | null;
  grade: string | null;
  harvest_recalled_at: Date | null;
  harvest_recall_reason: string | null;
  /** What processing and packing took from the batch. */
  taken_quantity: number;
  planting_id: string;
  planting_code: string | null;
  sown_at: Date;
  expected_harvest_at: Date | null;
  planting_state: string;
  plant_id: string;
  crop_name: string;
  variety: string;
  plant_gtin: string | null;
  area_id: string;
  area_name: string;
  area_mu: number | null;
  soil: string | null;
  base_id: string;
  base_name: string;
  village: string;
  base_address: string | null;
  producer_id: string;
  producer_name: string;
  producer_code: string;
  cert_language: 'zh' | 'tw' | 'en';
  commitment: string | null;
  contact: string | null;
  phone: string | null;
  producer_address: string | null;
}

export interface FarmworkRow {
  id: string;
  planting_id: string;
  work_type: 'fertilizing' | 'spraying' | 'irrigation' | 'weeding' | 'other';
  product: string | null;
  dose: number | null;
  dose_unit: string | null;
  operator: string | null;
  done_at: Date;
  phi_days: number | null;
}

export interface ProcessRow {
  id: string;
  process_no: string | null;
  process_type: 'washing' | 'sorting' | 'drying' | 'milling' | 'cutting' | 'other';
  started_at: Date;
  ended_at: Date | null;
  expected_yield: number;
  input_quantity: number;
  output_quantity: number | null;
  output_unit: string | null;
  packed_quantity: number;
  /** Recalled itself or through a harvest batch it takes from. */
  recalled: boolean;
  recalled_at: Date | null;
  recall_reason: string | null;
}

export interface ShipmentRow {
  id: string;
  package_id: string;
  package_count: number;
  carrier: string | null;
  vehicle: string | null;
  from_place: string;
  to_place: string;
  departed_at: Date;
  arrived_at: Date | null;
  temperatures: unknown;
}

export const traceReads = {
  async packages(sql: Sql, ids: string[]): Promise<PackageDetailRow[]> {
    const { rows } = await sql.query<PackageDetailRow>(
      `SELECT id::text, trace_code, harvest_id::text, process_id::text, gtin, lot, package_count,
              net_quantity, unit, packed_at, best_before, trace_package_recalled(id) AS recalled,
              recalled_at, recall_reason, trace_package_shipped(id) AS shipped_count,
              (SELECT count(*)::int FROM trace_scan s WHERE s.package_id = p.id) AS scan_count
         FROM trace_package p WHERE id = ANY($1::bigint[])
        ORDER BY packed_at, id`,
      [ids],
    );
    return rows;
  },

  /**
   * Harvest batches with where they grew: those named, and those the named processes take
   * from; in harvest order.
   */
  async origins(
    sql: Sql,
    from: { harvestIds: string[]; processIds: string[] },
  ): Promise<OriginRow[]> {
    const { rows } = await sql.query<OriginRow>(
      `SELECT h.id::text AS harvest_id, h.batch_no, h.harvested_at, h.quantity, h.unit, h.grade,
              h.recalled_at AS harvest_recalled_at, h.recall_reason AS harvest_recall_reason,
              trace_harvest_taken(h.id) AS taken_quantity,
              pl.id::text AS planting_id, pl.planting_code, pl.sown_at, pl.expected_harvest_at,
              pl.state AS planting_state,
              pt.id::text AS plant_id, pt.crop_name, pt.variety, pt.gtin AS plant_gtin,
              a.id::text AS area_id, a.area_name, a.area_mu, a.soil,
              b.id::text AS base_id, b.base_name, b.village, b.address AS base_address,
              pr.id::text AS producer_id, pr.producer_name, pr.producer_code, pr.cert_language,
              pr.commitment, pr.contact, pr.phone, pr.address AS producer_address
         FROM trace_harvest h
         JOIN trace_planting pl ON pl.id = h.planting_id
         JOIN trace_plant pt ON pt.id = pl.plant_id
         JOIN trace_area a ON a.id = pl.area_id
         JOIN trace_base b ON b.id = a.base_id
         JOIN trace_producer pr ON pr.id = b.producer_id
        WHERE h.id = ANY($1::bigint[])
           OR h.id IN (SELECT i.harvest_id FROM trace_process_input i
                        WHERE i.process_id = ANY($2::bigint[]))
        ORDER BY h.harvested_at, h.id`,
      [from.harvestIds, from.processIds],
    );
    return rows;
  },

  /** The farm work of the plantings, in time order. */
  async farmwork(sql: Sql, plantingIds: string[]): Promise<FarmworkRow[]> {
    const { rows } = await sql.query<FarmworkRow>(
      `SELECT id::text, planting_id::text, work_type, product, dose, dose_unit, operator, done_at,
              phi_days
         FROM trace_farmwork WHERE planting_id = ANY($1::bigint[])
        ORDER BY done_at, id`,
      [plantingIds],
    );
    return rows;
  },

  async processes(sql: Sql, ids: string[]): Promise<ProcessRow[]> {
    const { rows } = await sql.query<ProcessRow>(
      `SELECT id::text, process_no, process_type, started_at, ended_at, expected_yield,
              trace_process_input_total(id) AS input_quantity, output_quantity, output_unit,
              trace_process_packed(id) AS packed_quantity, trace_process_recalled(id) AS recalled,
              recalled_at, recall_reason
         FROM trace_process WHERE id = ANY($1::bigint[])
        ORDER BY started_at, id`,
      [ids],
    );
    return rows;
  },

  /** The shipments of the package batches, in departure order. */
  async shipments(sql: Sql, packageIds: string[]): Promise<ShipmentRow[]> {
    const { rows } = await sql.query<ShipmentRow>(
      `SELECT id::text, package_id::text, package_count, carrier, vehicle, from_place, to_place,
              departed_at, arrived_at, temperatures
         FROM trace_shipment WHERE package_id = ANY($1::bigint[])
        ORDER BY departed_at, id`,
      [packageIds],
    );
    return rows;
  },
};
