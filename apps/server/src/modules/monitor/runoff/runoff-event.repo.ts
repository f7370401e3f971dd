import type { Sql } from '../../../db/database';
import type { Reading, RunoffEventTotals } from './runoff-events';

export interface RunoffPlotRow {
  id: string;
  thing_model: { properties?: Array<{ key: string; unit?: string }> } | null;
}

const round = (value: number, places: number) => Number(value.toFixed(places));

/** SQL of the runoff events: the plots, their readings, the events written by the server. */
export const runoffEventRepo = {
  /** The tenant's runoff plots (every sediment_station device), with their thing models. */
  async plots(sql: Sql): Promise<RunoffPlotRow[]> {
    const { rows } = await sql.query<RunoffPlotRow>(
      `SELECT d.id::text, p.thing_model FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = 'sediment_station' ORDER BY d.id`,
    );
    return rows;
  },

  /** Where the plot's next detection starts: the end of its last finished event, if any. */
  async lastEnd(sql: Sql, deviceId: string): Promise<Date | undefined> {
    const { rows } = await sql.query<{ end_at: Date | null }>(
      `SELECT max(end_at) AS end_at FROM monitor_runoff_event
        WHERE device_id = $1 AND NOT ongoing`,
      [deviceId],
    );
    return rows[0]?.end_at ?? undefined;
  },

  /** A plot's readings of one key after `from` (exclusive), in time order. */
  async readings(sql: Sql, deviceId: string, key: string, from: Date): Promise<Reading[]> {
    const { rows } = await sql.query<{ at: number; value: number }>(
      `SELECT date_part('epoch', ts) * 1000 AS at, value FROM iot_telemetry
        WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
          AND device_id = $1 AND key = $2 AND ts > $3 AND value IS NOT NULL
        ORDER BY ts`,
      [deviceId, key, from.toISOString()],
    );
    return rows.map((row) => ({ at: Number(row.at), value: Number(row.value) }));
  },

  /**
   * Stores the events detected from `from` on: each by its start (an ongoing one updated as it
   * grows and ends), and drops ongoing events of the plot that detection no longer finds (their
   * readings were replaced). Idempotent: a second detection over the same readings changes nothing.
   */
  async store(
    sql: Sql,
    tenantId: string,
    deviceId: string,
    area: number,
    from: Date,
    events: RunoffEventTotals[],
  ): Promise<number> {
    await sql.query(
      `DELETE FROM monitor_runoff_event
        WHERE device_id = $1 AND ongoing AND start_at > $2 AND NOT (start_at = ANY($3::timestamptz[]))`,
      [deviceId, from.toISOString(), events.map((event) => new Date(event.startAt).toISOString())],
    );
    for (const event of events)
      await sql.query(
        `INSERT INTO monitor_runoff_event (tenant_id, device_id, start_at, end_at, ongoing,
                                           rainfall, runoff_volume, runoff_depth,
                                           runoff_coefficient, sediment_yield, peak_flow, plot_area)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (tenant_id, device_id, start_at) DO UPDATE
            SET end_at = EXCLUDED.end_at, ongoing = EXCLUDED.ongoing, rainfall = EXCLUDED.rainfall,
                runoff_volume = EXCLUDED.runoff_volume, runoff_depth = EXCLUDED.runoff_depth,
                runoff_coefficient = EXCLUDED.runoff_coefficient,
                sediment_yield = EXCLUDED.sediment_yield, peak_flow = EXCLUDED.peak_flow,
                plot_area = EXCLUDED.plot_area, updated_at = now()`,
        [
          tenantId,
          deviceId,
          new Date(event.startAt).toISOString(),
          event.endAt === null ? null : new Date(event.endAt).toISOString(),
          event.ongoing,
          round(event.rainfall, 1),
          round(event.runoffVolume, 4),
          round(event.runoffDepth, 2),
          event.runoffCoefficient === null ? null : round(event.runoffCoefficient, 3),
          round(event.sedimentYield, 3),
          round(event.peakFlow, 3),
          area,
        ],
      );
    return events.length;
  },
};
