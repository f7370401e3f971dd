import type { FertilizerUse, FertilizerUseQuery } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { checkRange, TelemetryQueryService } from '../../iot/telemetry/telemetry-query.service';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';

/** The factor of a fertilizer channel's suction flow (L/h) in the thing models. */
const CHANNEL_FLOW_FACTOR = 'channelFlow';

/**
 * Litres per channel and bucket from the hourly rollup: each hour's mean suction flow (L/h)
 * times the hours it covers (1, or the part of the current hour gone by). Hours without
 * readings add nothing (a machine offline is not assumed to dose). Buckets are cut in the
 * tenant's time zone from whole UTC hours.
 */
async function litres(
  sql: Sql,
  deviceId: string,
  keys: string[],
  start: Date,
  end: Date,
  bucket: string,
  timeZone: string,
): Promise<Array<{ bucket: Date; key: string; liters: number }>> {
  const { rows } = await sql.query<{ bucket: Date; key: string; liters: number }>(
    `SELECT date_trunc($5, h.hour, $6) AS bucket, h.key,
            sum(h.sum / h.n * least(1, greatest(0, extract(epoch FROM (now() - h.hour)) / 3600)))
              AS liters
       FROM iot_telemetry_hourly h
      WHERE h.tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
        AND h.device_id = $1 AND h.key = ANY($2::text[]) AND h.n > 0
        AND h.hour >= date_trunc('hour', $3::timestamptz) AND h.hour < $4
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [deviceId, keys, start, end, bucket, timeZone],
  );
  return rows.map((row) => ({ ...row, liters: Number(row.liters) }));
}

/** Fertilizer drawn per channel of a fertigation machine (the fertilizer-use widget). */
export class FertilizerUseService {
  private readonly telemetry: TelemetryQueryService;

  constructor(private readonly db: Database) {
    this.telemetry = new TelemetryQueryService(db);
  }

  query(auth: AuthContext, query: FertilizerUseQuery): Promise<FertilizerUse> {
    const range = checkRange(query.start, query.end, query.bucket);
    return this.db.tenant(auth, async (sql) => {
      const [device] = await this.telemetry.devicesOf(sql, [query.deviceId], 'deviceId');
      const channels = device!.thingModel.properties.filter(
        (property) => property.factor === CHANNEL_FLOW_FACTOR,
      );
      const timeZone = await tenantTimeZone(sql);
      const rows = channels.length
        ? await litres(
            sql,
            device!.id,
            channels.map((channel) => channel.key),
            range.start,
            range.end,
            query.bucket,
            timeZone,
          )
        : [];
      const totals: Record<string, number> = Object.fromEntries(
        channels.map((channel) => [channel.key, 0]),
      );
      for (const row of rows) totals[row.key] = (totals[row.key] ?? 0) + row.liters;
      const round = (value: number) => Math.round(value * 1000) / 1000;
      return {
        timeZone,
        channels: channels.map((channel) => ({ key: channel.key, name: channel.name })),
        list: rows.map((row) => ({
          bucket: row.bucket.toISOString(),
          key: row.key,
          liters: round(row.liters),
        })),
        totals: Object.fromEntries(
          Object.entries(totals).map(([key, value]) => [key, round(value)]),
        ),
      };
    });
  }
}
