import type { Database } from '../../../db/database';
import type { CommandService } from '../../iot/command/command.service';
import { scheduleOnce, type Processor } from '../../scheduler/scheduler.service';
import { irrigationRepo } from './irrigation.repo';
import { ROTATION_STEP, rotationHolder, rotationStepKey } from './irrigation-keys';
import { stepOpenings, type PlannedStep } from './rotation-plan';
import { actOnChannels, tally, type ChannelOutcome } from './valve-actions';

/** A start later than this (the server was down at the start time) is skipped, not run late. */
const MISSED_AFTER_MS = 30 * 60_000;

interface StartPayload {
  scheduleId: string;
}

interface StepPayload {
  scheduleId: string;
  /** The rotation's start (epoch ms): names its steps and its holds. */
  startedAt: number;
  step: number;
}

/** The operator of a rotation's commands in the operation records. */
const operatorOf = (name: string) => `rotation: ${name}`;

/**
 * A rotation schedule's start (its daily trigger): holds the channels of all its groups until
 * the rotation ends and schedules the first step now. A start missed by more than 30 minutes, a
 * disabled schedule, or one whose previous rotation still runs is skipped with the reason.
 */
export function rotationStartProcessor(deps: { db: Database }): Processor<StartPayload> {
  return async (run) => {
    const lateMs = Date.now() - run.fireAt.getTime();
    if (lateMs > MISSED_AFTER_MS)
      return {
        state: 'skipped',
        result: {
          decision: 'skipped',
          why: 'missed',
          lateMinutes: Math.round(lateMs / 60_000),
          reason: `missed: the server was not running at the start time (${Math.round(lateMs / 60_000)} min late)`,
        },
      };
    return deps.db.tenant(run.tenantId, async (sql) => {
      const schedule = await irrigationRepo.rotation(sql, run.payload.scheduleId);
      if (!schedule || schedule.status !== 1)
        return {
          state: 'skipped' as const,
          result: { decision: 'skipped', why: 'disabled', reason: 'the schedule is disabled' },
        };
      const holder = rotationHolder(schedule.id);
      const { rows: running } = await sql.query(
        'SELECT 1 FROM irrigation_channel_hold WHERE holder = $1 AND until > now() LIMIT 1',
        [holder],
      );
      if (running.length)
        return {
          state: 'skipped' as const,
          result: {
            decision: 'skipped',
            why: 'stillRunning',
            reason: 'the previous rotation of this schedule is still running',
          },
        };
      const totalMinutes = schedule.steps.reduce((sum, step) => sum + step.minutes, 0);
      const startedAt = run.fireAt.getTime();
      const until = new Date(startedAt + totalMinutes * 60_000);
      const members = [];
      for (const step of schedule.steps)
        members.push(...((await irrigationRepo.group(sql, step.groupId))?.members ?? []));
      const held = await irrigationRepo.takeHolds(
        sql,
        run.tenantId,
        { holder, name: schedule.schedule_name, until },
        members,
      );
      await scheduleOnce(sql, {
        tenantId: run.tenantId,
        kind: ROTATION_STEP,
        key: rotationStepKey(schedule.id, startedAt, 0),
        dueAt: run.fireAt,
        payload: { scheduleId: schedule.id, startedAt, step: 0 },
        maxAttempts: 3,
      });
      return {
        result: {
          decision: 'started',
          steps: schedule.steps.length,
          until: until.toISOString(),
          heldByOthers: members.length - held.length,
          reason: `started: ${schedule.steps.length} groups, ${totalMinutes} min`,
        },
      };
    });
  };
}

/**
 * One step of a rotation: opens the step's group for its minutes (each channel's timed close
 * ends it; a channel also in the next groups stays open through them, rotation-plan.ts) and
 * schedules the next step at this one's end. Idempotent by run: the opens are
 * recorded per run, the next step's key names it.
 */
export function rotationStepProcessor(deps: {
  db: Database;
  commands: CommandService;
}): Processor<StepPayload> {
  return async (run) => {
    const { scheduleId, startedAt, step } = run.payload;
    const found = await deps.db.tenant(run.tenantId, async (sql) => {
      const schedule = await irrigationRepo.rotation(sql, scheduleId);
      const current = schedule?.steps[step];
      if (!schedule || !current) return undefined;
      // Every step's channels: a channel of consecutive groups is opened once for all of them.
      const planned: PlannedStep[] = [];
      for (const one of schedule.steps)
        planned.push({
          members: (await irrigationRepo.group(sql, one.groupId))?.members ?? [],
          minutes: one.minutes,
        });
      const group = await irrigationRepo.group(sql, current.groupId);
      return { schedule, current, group, planned };
    });
    if (!found || found.schedule.status !== 1)
      return {
        state: 'skipped',
        result: {
          decision: 'skipped',
          why: 'disabled',
          reason: 'the schedule is gone or disabled',
        },
      };
    const { schedule, current, group, planned } = found;
    const outcomes: ChannelOutcome[] = [];
    for (const opening of stepOpenings(planned, step))
      outcomes.push(
        ...(await actOnChannels(
          deps.commands,
          run,
          {
            open: true,
            minutes: opening.minutes,
            operator: operatorOf(schedule.schedule_name),
            holder: rotationHolder(scheduleId),
          },
          opening.members,
        )),
      );
    const next = step + 1;
    if (next < schedule.steps.length)
      await deps.db.tenant(run.tenantId, (sql) =>
        scheduleOnce(sql, {
          tenantId: run.tenantId,
          kind: ROTATION_STEP,
          key: rotationStepKey(scheduleId, startedAt, next),
          dueAt: new Date(run.fireAt.getTime() + current.minutes * 60_000),
          payload: { scheduleId, startedAt, step: next },
          maxAttempts: 3,
        }),
      );
    const counts = tally(outcomes);
    return {
      result: {
        decision: 'opened',
        step: step + 1,
        groupId: current.groupId,
        groupName: group?.group_name ?? null,
        minutes: current.minutes,
        ...counts,
        outcomes,
        reason: `step ${step + 1}: ${group?.group_name ?? current.groupId} opened for ${current.minutes} min (${counts.sent} sent, ${counts.refused} refused)`,
      },
    };
  };
}
