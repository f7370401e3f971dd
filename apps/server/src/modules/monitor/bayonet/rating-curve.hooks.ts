import { ratingCurveEntity } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FieldProblem } from '../../../http/app-error';
import { localTime } from '../../iot/telemetry/telemetry-export';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { mergedRow, refuseProblems } from '../entity-rows';

/** A time as an operator reads it in the tenant's zone, to the minute: 2026-05-01 08:00. */
const shown = (at: Date, timeZone: string): string => localTime(at, timeZone).slice(0, 16);

const instant = (value: unknown): Date | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const at = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(at.getTime()) ? undefined : at;
};

/**
 * A rating curve belongs to a bayonet station, ends after it starts, and its period [validFrom,
 * validTo) overlaps no other curve of the station: every level then has one curve at most.
 */
async function checkCurve(ctx: EntityContext, id: string | undefined, values: Row) {
  const curve = await mergedRow(ctx.sql, ratingCurveEntity.table, id, values);
  const problems: FieldProblem[] = [];
  const timeZone = await tenantTimeZone(ctx.sql);
  const from = instant(curve.validFrom);
  const to = instant(curve.validTo);
  const deviceId =
    curve.deviceId === undefined || curve.deviceId === null ? undefined : String(curve.deviceId);
  if (deviceId) {
    // Curves of one station are written one after the other: two overlapping ones sent at the
    // same moment cannot both pass the check below.
    await ctx.sql.query(`SELECT pg_advisory_xact_lock(hashtext('rating-curve:' || $1::text))`, [
      deviceId,
    ]);
    const { rows } = await ctx.sql.query<{ kind: string }>(
      `SELECT p.device_kind AS kind FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1`,
      [deviceId],
    );
    if (rows[0] && rows[0].kind !== 'bayonet_station')
      problems.push({ field: 'deviceId', key: 'monitor.bayonetStationKind' });
  }
  if (from && to && to <= from)
    problems.push({
      field: 'validTo',
      key: 'monitor.validToAfterFrom',
      params: { from: shown(from, timeZone) },
    });
  else if (deviceId && from) {
    const { rows } = await ctx.sql.query<{ valid_from: Date; valid_to: Date | null }>(
      `SELECT valid_from, valid_to FROM monitor_rating_curve
        WHERE device_id = $1 AND ($2::bigint IS NULL OR id <> $2::bigint)
          AND valid_from < coalesce($4::timestamptz, 'infinity')
          AND coalesce(valid_to, 'infinity') > $3::timestamptz
        ORDER BY valid_from LIMIT 1`,
      [deviceId, id ?? null, from.toISOString(), to ? to.toISOString() : null],
    );
    const other = rows[0];
    if (other)
      problems.push({
        field: 'validFrom',
        key: 'monitor.ratingCurveOverlap',
        params: {
          from: shown(other.valid_from, timeZone),
          to: other.valid_to ? shown(other.valid_to, timeZone) : '…',
        },
      });
  }
  refuseProblems(problems);
}

/** The rating curves' own rules, for the generic entity routes. */
export const ratingCurveHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkCurve(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkCurve(ctx, id, values),
};
