import { isRainThresholds, type RainThresholds } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** A stored row of thresholds: a station's (stationId) or the tenant's default (null). */
export interface FloodThresholdRow {
  stationId: string | null;
  thresholds: RainThresholds;
  updatedAt: Date;
  updatedBy: string | null;
}

interface DbRow {
  station_id: string | null;
  thresholds: unknown;
  updated_at: Date;
  updated_by: string | null;
}

/** Rows whose JSON no longer has the level × window shape are left out (read as absent). */
const rowOf = (row: DbRow): FloodThresholdRow[] =>
  isRainThresholds(row.thresholds)
    ? [
        {
          stationId: row.station_id,
          thresholds: row.thresholds,
          updatedAt: row.updated_at,
          updatedBy: row.updated_by,
        },
      ]
    : [];

/** SQL of the rain thresholds (migration 018), in the caller's tenant context. */
export const floodThresholdRepo = {
  /** The tenant's default and these stations' own rows. */
  async rows(sql: Sql, stationIds: readonly string[]): Promise<FloodThresholdRow[]> {
    const { rows } = await sql.query<DbRow>(
      `SELECT station_id::text, thresholds, updated_at, updated_by FROM monitor_flood_threshold
        WHERE station_id IS NULL OR station_id = ANY($1::bigint[])`,
      [stationIds],
    );
    return rows.flatMap(rowOf);
  },

  async put(
    sql: Sql,
    row: { tenantId: string; stationId: string | null; thresholds: RainThresholds; by: string },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO monitor_flood_threshold (tenant_id, station_id, thresholds, updated_by)
       VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (tenant_id, coalesce(station_id, 0))
       DO UPDATE SET thresholds = EXCLUDED.thresholds, updated_at = now(),
                     updated_by = EXCLUDED.updated_by`,
      [row.tenantId, row.stationId, JSON.stringify(row.thresholds), row.by],
    );
  },

  async remove(sql: Sql, stationId: string | null): Promise<void> {
    await sql.query(
      `DELETE FROM monitor_flood_threshold WHERE station_id IS NOT DISTINCT FROM $1::bigint`,
      [stationId],
    );
  },
};
