import type { Sql } from '../../../db/database';
import {
  traceReads,
  type FarmworkRow,
  type OriginRow,
  type PackageDetailRow,
  type ProcessRow,
  type ShipmentRow,
} from '../trace-reads';

/**
 * Reads of the public trace page (docs/traceability.md "Public page"). `packageByCode` runs as
 * the system (a code is unique across tenants and names its tenant); everything else runs in
 * that tenant's transaction, so row-level security keeps every other tenant's rows out.
 */

export interface PackageRow {
  id: string;
  tenant_id: string;
}

export type { FarmworkRow, OriginRow, PackageDetailRow, ProcessRow, ShipmentRow };

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

  // The chain's reads are shared with the resume (../trace-reads.ts).
  async packageDetail(sql: Sql, id: string): Promise<PackageDetailRow | undefined> {
    return (await traceReads.packages(sql, [id]))[0];
  },

  /** The harvest batches the package comes from: its own, or its process's inputs. */
  async origins(
    sql: Sql,
    pkg: Pick<PackageDetailRow, 'harvest_id' | 'process_id'>,
  ): Promise<OriginRow[]> {
    return traceReads.origins(sql, {
      harvestIds: pkg.harvest_id ? [pkg.harvest_id] : [],
      processIds: pkg.process_id ? [pkg.process_id] : [],
    });
  },

  /** The farm work of the plantings, in time order (the service keeps what preceded harvest). */
  async farmwork(sql: Sql, plantingIds: string[]): Promise<FarmworkRow[]> {
    return traceReads.farmwork(sql, plantingIds);
  },

  async process(sql: Sql, processId: string): Promise<ProcessRow | undefined> {
    return (await traceReads.processes(sql, [processId]))[0];
  },

  async shipments(sql: Sql, packageId: string): Promise<ShipmentRow[]> {
    return traceReads.shipments(sql, [packageId]);
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

  /** The code's scans as they stand (a preview counts none; never scanned: from now). */
  async scanStats(sql: Sql, packageId: string): Promise<ScanStatsRow> {
    const { rows } = await sql.query<ScanStatsRow>(
      `SELECT count(*)::int AS count, coalesce(min(scanned_at), now()) AS first_at,
              (count(DISTINCT client_hash) FILTER (WHERE scanned_at > now() - interval '1 day'))::int
                AS clients_today
         FROM trace_scan WHERE package_id = $1`,
      [packageId],
    );
    return rows[0]!;
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
