import {
  jobInfoEntity,
  PROCESSORS,
  parseProcessorParams,
  type EntityDef,
  type ExecuteType,
  type ProcessorType,
  type TimeExpressionType,
} from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import type { FieldProblem } from '../../http/app-error';
import { cancel } from '../scheduler/scheduler.service';
import { mergedRow, refuseProblems } from '../monitor/entity-rows';
import {
  instanceTriggerKey,
  JOB_FIRE_KIND,
  jobTriggerKey,
  OPEN_STATES,
  STOP_CHANNEL,
} from './job-instances';
import { scheduleInfoOf, timeExpressionProblem } from './job-schedule';
import { timedEntityHooks } from './timed-entity.hooks';

/**
 * Spec §5 and the processors' declarations: a job is saved only with a usable time expression
 * (CRON checked in Quartz syntax), parameters its processor accepts, and an execute type its
 * processor supports. Its trigger follows every save, enable and delete in the same
 * transaction, so the schedule that runs is always the one shown.
 */
async function checkJob(ctx: EntityContext, id: string | undefined, values: Row): Promise<Row> {
  const row = await mergedRow(ctx.sql, 'job_info', id, values);
  if (id && row.id === undefined) return {}; // not the caller's: the generic update answers 404
  const problems: FieldProblem[] = [];
  const type = row.timeExpressionType as TimeExpressionType;
  const timing = timeExpressionProblem(type, row.timeExpression as string | null);
  if (timing) problems.push(timing);
  const processor = row.processorType as ProcessorType;
  const declaration = PROCESSORS[processor];
  if (declaration) {
    const parsed = parseProcessorParams(processor, row.jobParams as string | null);
    if ('problem' in parsed) {
      const param = declaration.params.find((one) => one.name === parsed.problem.param);
      problems.push(
        param
          ? {
              field: 'jobParams',
              key:
                parsed.problem.key === 'validation.required'
                  ? 'jobs.params.required'
                  : 'jobs.params.invalid',
              params: { param: param.label[ctx.lang] },
            }
          : { field: 'jobParams', key: parsed.problem.key },
      );
    }
    const executeType = (row.executeType as ExecuteType) ?? 'STANDALONE';
    if (!declaration.executeTypes.includes(executeType))
      problems.push({
        field: 'executeType',
        key: 'jobs.executeTypeUnsupported',
        params: { processor, executeType },
      });
  }
  refuseProblems(problems);
  return { schedule_info: scheduleInfoOf(type, row.timeExpression as string | null) };
}

const jobHooks: EntityHooks = {
  ...timedEntityHooks({
    table: 'job_info',
    triggerKey: jobTriggerKey,
    kind: JOB_FIRE_KIND,
    payloadKey: 'jobId',
    check: checkJob,
  }),
  // A deleted job's instances go with it (cascade): nothing of it may still fire or run.
  beforeDelete: async (ctx, ids) => {
    for (const id of ids) await cancel(ctx.sql, jobTriggerKey(id));
    const { rows } = await ctx.sql.query<{ id: string }>(
      `SELECT id::text FROM job_instance WHERE job_id = ANY ($1::bigint[])
          AND status = ANY ($2::text[])`,
      [ids, OPEN_STATES],
    );
    for (const instance of rows) {
      await cancel(ctx.sql, instanceTriggerKey(instance.id));
      await ctx.sql.query('SELECT pg_notify($1, $2)', [STOP_CHANNEL, instance.id]);
    }
  },
};

export const JOB_ENTITY_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [jobInfoEntity, jobHooks],
]);
