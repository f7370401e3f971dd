import { waterCoefficientEntity } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import { AppError, type FieldProblem } from '../../../http/app-error';
import { localTime } from '../../iot/telemetry/telemetry-export';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { mergedRow, refuseProblems } from '../../monitor/entity-rows';
import { cardControllerProblem } from './device-kind';

/** How far a coefficient may lie from its calibration's volume ÷ energy (rounding of both). */
const CALIBRATION_TOLERANCE = 0.005;

/**
 * A coefficient belongs to a card controller, starts at a time no other coefficient of the well
 * starts at (each time then has exactly one: the newest started), and agrees with the measured
 * volume ÷ energy it was calibrated from when both are given: what farmers see published is
 * what the calibration gave.
 */
async function checkCoefficient(ctx: EntityContext, id: string | undefined, values: Row) {
  const row = await mergedRow(ctx.sql, waterCoefficientEntity.table, id, values);
  const problems: FieldProblem[] = [];
  const device =
    'deviceId' in values ? await cardControllerProblem(ctx.sql, row.deviceId) : undefined;
  if (device) problems.push(device);
  if (row.deviceId != null && row.validFrom != null) {
    const from = new Date(
      String(row.validFrom instanceof Date ? row.validFrom.toISOString() : row.validFrom),
    );
    const { rows } = await ctx.sql.query<{ id: string }>(
      `SELECT id::text FROM billing_water_coefficient
        WHERE device_id = $1 AND valid_from = $2 AND ($3::bigint IS NULL OR id <> $3::bigint)`,
      [String(row.deviceId), from.toISOString(), id ?? null],
    );
    // Taken, as the unique key would answer (409), in words that name the other coefficient.
    if (rows.length) {
      const field = {
        field: 'validFrom',
        key: 'billing.coefficientDateTaken',
        params: { from: localTime(from, await tenantTimeZone(ctx.sql)).slice(0, 16) },
      };
      throw new AppError(409, field.key, { params: field.params, fields: [field] });
    }
  }
  const volume = row.measuredVolume == null ? undefined : Number(row.measuredVolume);
  const energy = row.measuredEnergy == null ? undefined : Number(row.measuredEnergy);
  if (volume !== undefined && energy !== undefined && energy > 0 && row.coefficient != null) {
    const expected = volume / energy;
    if (
      Math.abs(Number(row.coefficient) - expected) >
      Math.max(0.0001, expected * CALIBRATION_TOLERANCE)
    )
      problems.push({
        field: 'coefficient',
        key: 'billing.coefficientMismatch',
        params: { volume, energy, expected: expected.toFixed(4) },
      });
  }
  refuseProblems(problems);
}

/** The electricity-to-water coefficients' rules, for the generic entity routes. */
export const waterCoefficientHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkCoefficient(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkCoefficient(ctx, id, values),
};
