import type { Sql } from '../../../db/database';

/**
 * Reads of the public trace page (docs/traceability.md "Public page"). `packageByCode` runs as
 * the system (a code is unique across tenants and names its tenant); everything else runs in
 * that tenant's transaction, so row-level security keeps every other tenant's rows out.
 */

export interface PackageRow {
  id: string;
  tenant_id: string;
}

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
  recalled: boolean;
  recalled_at: Date | null;
  recall_reason: string | null;
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
  planting_id: string;
  planting_code: string | null;
  sown_at: Date;
  crop_name: string;
  variety: string;
  area_id: string;
  area_name: string;
  area_mu: number | null;
  base_name: string;
  village: string;
  producer_name: string;
  producer_code: string;
  commitment: string | null;
}

export interface FarmworkRow {
  planting_id: string;
  work_type: 'fertilizing' | 'spraying' | 'irrigation' | 'weeding' | 'other';
  product: string | null;
  dose: number | null;
  dose_unit: string | null;
  done_at: Date;
  phi_days: number | null;
}

export interface ProcessRow {
  process_no: string | null;
  process_type: 'washing' | 'sorting' | 'drying' | 'milling' | 'cutting' | 'other';
  started_at: Date;
  ended_at: Date | null;
  input_quantity: number;
  output_quantity: number | null;
  output_unit: string | null;
  recalled_at: Date | null;
  recall_reason: string | null;
}

export interface ShipmentRow {
  package_count: number;
  carrier: string | null;
  from_place: string;
  to_place: string;
  departed_at: Date;
  arrived_at: Date | null;
  temperatures: unknown;
}

export interface PageSettingRow {
  title: string | null;
  color: string | null;
  logo: string | null;
  contact: string | null;
  sections: Record<string, unknown> | null;
}

export interface ScanStatsRow {
  count: number;
  first_at: Date;
  clients_today: number;
}

export const publicTraceRepo = {
  /** The package batch of a code and its tenant, when that tenant is active. */
  async packageByCode(sql: Sql, code: string): Promise<PackageRow | undefined> {
    const { rows } = await sql.query<PackageRow>(
      `SELECT p.id::text AS id, p.tenant_id::text AS tenant_id
         FROM trace_package p JOIN tenant t ON t.id = p.tenant_id
        WHERE p.trace_code = $1 AND shuili_tenant_active(t.status, t.start_time, t.end_time)`,
      [code],
    );
    return rows[0];
  },

  async packageDetail(sql: Sql, id: string): Promise<PackageDetailRow | undefined> {
    const { rows } = await sql.query<PackageDetailRow>(
      `SELECT id::text, trace_code, harvest_id::text, process_id::text, gtin, lot, package_count,
              net_quantity, unit, packed_at, best_before, trace_package_recalled(id) AS recalled,
              recalled_at, recall_reason
         FROM trace_package WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /** The harvest batches the package comes from: its own, or its process's inputs. */
  async origins(sql: Sql, pkg: Pick<PackageDetailRow, 'harvest_id' | 'process_id'>) {
    const { rows } = await sql.query<OriginRow>(
      `SELECT h.id::text AS harvest_id, h.batch_no, h.harvested_at, h.quantity, h.unit, h.grade,
              h.recalled_at AS harvest_recalled_at, h.recall_reason AS harvest_recall_reason,
              pl.id::text AS planting_id, pl.planting_code, pl.sown_at,
              pt.crop_name, pt.variety,
              a.id::text AS area_id, a.area_name, a.area_mu,
              b.base_name, b.village,
              pr.producer_name, pr.producer_code, pr.commitment
         FROM trace_harvest h
         JOIN trace_planting pl ON pl.id = h.planting_id
         JOIN trace_plant pt ON pt.id = pl.plant_id
         JOIN trace_area a ON a.id = pl.area_id
         JOIN trace_base b ON b.id = a.base_id
         JOIN trace_producer pr ON pr.id = b.producer_id
        WHERE h.id = $1
           OR h.id IN (SELECT i.harvest_id FROM trace_process_input i WHERE i.process_id = $2)
        ORDER BY h.harvested_at, h.id`,
      [pkg.harvest_id, pkg.process_id],
    );
    return rows;
  },

  /** The farm work of the plantings, up to each one's harvest, in time order. */
  async farmwork(sql: Sql, plantingIds: string[]): Promise<FarmworkRow[]> {
    const { rows } = await sql.query<FarmworkRow>(
      `SELECT planting_id::text, work_type, product, dose, dose_unit, done_at, phi_days
         FROM trace_farmwork WHERE planting_id = ANY($1::bigint[])
        ORDER BY done_at, id`,
      [plantingIds],
    );
    return rows;
  },

  async process(sql: Sql, processId: string): Promise<ProcessRow | undefined> {
    const { rows } = await sql.query<ProcessRow>(
      `SELECT process_no, process_type, started_at, ended_at,
              trace_process_input_total(id) AS input_quantity, output_quantity, output_unit,
              recalled_at, recall_reason
         FROM trace_process WHERE id = $1`,
      [processId],
    );
    return rows[0];
  },

  async shipments(sql: Sql, packageId: string): Promise<ShipmentRow[]> {
    const { rows } = await sql.query<ShipmentRow>(
      `SELECT package_count, carrier, from_place, to_place, departed_at, arrived_at, temperatures
         FROM trace_shipment WHERE package_id = $1 ORDER BY departed_at, id`,
      [packageId],
    );
    return rows;
  },

  /** The IoT devices serving a plot. */
  async areaDevices(sql: Sql, areaId: string): Promise<string[]> {
    const { rows } = await sql.query<{ device_id: string }>(
      `SELECT device_id::text FROM trace_area_device WHERE area_id = $1 ORDER BY device_id`,
      [areaId],
    );
    return rows.map((row) => row.device_id);
  },

  async pageSetting(sql: Sql): Promise<PageSettingRow | undefined> {
    const { rows } = await sql.query<PageSettingRow>(
      `SELECT title, color, logo, contact, sections FROM trace_page_setting
        WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint`,
    );
    return rows[0];
  },

  /** Records one look-up and answers the code's scans, this one included. */
  async scan(
    sql: Sql,
    packageId: string,
    clientHash: string,
    userAgent: string | null,
  ): Promise<ScanStatsRow> {
    await sql.query(
      `INSERT INTO trace_scan (tenant_id, package_id, client_hash, user_agent)
       VALUES (nullif(current_setting('app.tenant_id', true), '')::bigint, $1, $2, $3)`,
      [packageId, clientHash, userAgent],
    );
    const { rows } = await sql.query<ScanStatsRow>(
      `SELECT count(*)::int AS count, min(scanned_at) AS first_at,
              (count(DISTINCT client_hash) FILTER (WHERE scanned_at > now() - interval '1 day'))::int
                AS clients_today
         FROM trace_scan WHERE package_id = $1`,
      [packageId],
    );
    return rows[0]!;
  },
};
