import { reportIntervalOf } from '@shuili/contract';
import { AppError } from '../../../http/app-error';
import type { CommandGuard } from '../../iot/command/command-guards';
import { areaSetting } from '../settings/area-setting.service';

/** The property a pump station reports its forebay level on, and the command the guard stops. */
const FOREBAY_LEVEL = 'forebayLevel';
const START_PUMP = 'startPump';
/** A level older than this many report intervals no longer says what the forebay holds. */
export const DRY_RUN_STALE_INTERVALS = 3;

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The pump dry-run interlock (DOMAINS.md "refuse start when the forebay is below the dry-run
 * level"), a command guard of pump stations: startPump is refused (409 naming the level and the
 * limit, nothing recorded or sent) while the station's latest forebay level is below its
 * dryRunLevel setting, and also when the level is unknown (never reported) or stale (older than
 * DRY_RUN_STALE_INTERVALS report intervals of its product): a pump must not start on a level
 * nobody has seen. Equal to the limit is allowed. A product without a forebayLevel property has
 * no forebay gauge, so the interlock does not apply to it. It runs for every sender (a user, a
 * schedule) inside the sending transaction, under the station's command lock.
 */
export const dryRunGuard: CommandGuard = async (ctx) => {
  if (ctx.name !== START_PUMP) return;
  if (!ctx.device.thingModel.properties.some((property) => property.key === FOREBAY_LEVEL)) return;
  const limit = Number(await areaSetting(ctx.sql, ctx.device.id, 'pumpStation', 'dryRunLevel'));
  const { rows } = await ctx.sql.query<{ value: number | null; age_seconds: number }>(
    `SELECT value, extract(epoch FROM (now() - ts))::float8 AS age_seconds
       FROM iot_telemetry_latest
      WHERE tenant_id = $1 AND device_id = $2 AND key = $3`,
    [ctx.tenantId, ctx.device.id, FOREBAY_LEVEL],
  );
  const latest = rows[0];
  if (!latest || latest.value === null)
    throw new AppError(409, 'monitor.dryRunUnknown', { params: { limit } });
  const maxSeconds = DRY_RUN_STALE_INTERVALS * reportIntervalOf(ctx.device.thingModel);
  if (latest.age_seconds > maxSeconds)
    throw new AppError(409, 'monitor.dryRunStale', {
      params: {
        level: round(latest.value),
        minutes: Math.floor(latest.age_seconds / 60),
        maxMinutes: Math.round((maxSeconds / 60) * 10) / 10,
        limit,
      },
    });
  if (latest.value < limit)
    throw new AppError(409, 'monitor.dryRunBelow', {
      params: { level: round(latest.value), limit },
    });
};
