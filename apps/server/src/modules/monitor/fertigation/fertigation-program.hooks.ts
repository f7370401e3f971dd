import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import { AppError } from '../../../http/app-error';
import { cancel, scheduleRecurring } from '../../scheduler/scheduler.service';
import { FERTIGATION_START, programTriggerKey } from './fertigation-runner';

const FERTIGATION_KIND = 'water_fertilizer';

/**
 * Keeps a program's timed start in step with the program, in the write's transaction: an enabled
 * program with a start time has a daily trigger (on its days, in the tenant's time zone); any
 * other has none.
 */
async function syncStart(ctx: EntityContext, id: string): Promise<void> {
  const { rows } = await ctx.sql.query<{
    start_time: string | null;
    days_of_week: string[] | null;
    status: number;
  }>('SELECT start_time, days_of_week, status FROM monitor_fertigation_program WHERE id = $1', [
    id,
  ]);
  const program = rows[0];
  const key = programTriggerKey(id);
  if (!program || program.status !== 1 || !program.start_time || !ctx.tenantId) {
    await cancel(ctx.sql, key);
    return;
  }
  const days = (program.days_of_week ?? []).map(Number).sort();
  await scheduleRecurring(ctx.sql, {
    tenantId: ctx.tenantId,
    kind: FERTIGATION_START,
    key,
    recurrence: {
      type: 'daily',
      at: program.start_time,
      ...(days.length ? { daysOfWeek: days } : {}),
    },
    payload: { programId: id },
    // A start that cannot happen now (machine busy) is not retried into the middle of the day.
    maxAttempts: 1,
  });
}

/**
 * A program runs on a fertigation machine: a device of another kind is refused, 400 naming
 * deviceId (one the caller cannot see is left to the generic reference check).
 */
async function checkMachine(ctx: EntityContext, values: Row): Promise<void> {
  if (values.deviceId === undefined || values.deviceId === null) return;
  const { rows } = await ctx.sql.query<{ device_kind: string | null }>(
    `SELECT p.device_kind FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
      WHERE d.id = $1`,
    [values.deviceId],
  );
  if (rows.length > 0 && rows[0]!.device_kind !== FERTIGATION_KIND)
    throw new AppError(400, 'validation.invalid', {
      fields: [{ field: 'deviceId', key: 'monitor.notFertigationMachine' }],
    });
}

export const fertigationProgramHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkMachine(ctx, values),
  beforeUpdate: async (ctx, _id, values) => checkMachine(ctx, values),
  afterCreate: async (ctx, id) => syncStart(ctx, id),
  afterUpdate: async (ctx, id) => syncStart(ctx, id),
  afterStatus: async (ctx, ids) => {
    for (const id of ids) await syncStart(ctx, id);
  },
  beforeDelete: async (ctx, ids) => {
    for (const id of ids) await cancel(ctx.sql, programTriggerKey(id));
  },
};
