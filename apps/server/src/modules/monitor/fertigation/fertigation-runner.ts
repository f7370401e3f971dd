import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { CommandService } from '../../iot/command/command.service';
import {
  scheduleOnce,
  type RunOutcome,
  type Scheduler,
  type SchedulerRun,
} from '../../scheduler/scheduler.service';
import { areaSetting } from '../settings/area-setting.service';
import { offBandReason } from './fertigation-band';
import {
  fertigationRunRepo as repo,
  type RunReason,
  type RunRow,
  type StoredStep,
} from './fertigation-run.repo';

/** The scheduler kinds of fertigation: a run's next look, and a program's timed start. */
export const FERTIGATION_TICK = 'fertigation.tick';
export const FERTIGATION_START = 'fertigation.start';
export const runTriggerKey = (runId: string) => `fertigation:run:${runId}`;
export const programTriggerKey = (programId: string) => `fertigation:program:${programId}`;
/** What holds a machine while a run sends its commands (command guards let these through). */
export const runHolder = (runId: string) => `fertigation:${runId}`;

/** How soon a run looks again while a step's command is under way, and while it watches. */
const STEP_POLL_MS = 1_000;
const WATCH_MS = 5_000;
/** How far back the band watch reads (a streak that matters is over a minute, never ten). */
const WATCH_WINDOW_MS = 10 * 60_000;
/** How long a step's command waits for a machine that is offline before it expires. */
const STEP_EXPIRES_SECONDS = 120;
const OPEN = new Set(['pending', 'sent']);

const WATER_FERTILIZER = 'waterFertilizer';

/** The minutes a machine runs a program on its own once it accepted startProgram. */
export const totalMinutes = (run: RunRow) =>
  run.program.waterBeforeMinutes + run.program.fertilizerMinutes + run.program.waterAfterMinutes;

/** A refused command's reason as a run keeps it: its message key and parameters. */
function refusalDetail(error: unknown): { key: string; params: Record<string, string | number> } {
  if (error instanceof AppError) {
    const field = error.options.fields?.[0];
    return field
      ? { key: field.key, params: { field: field.field, ...field.params } }
      : { key: error.key, params: { ...error.options.params } };
  }
  return { key: 'error.server', params: {} };
}

/**
 * Runs fertigation programs on the scheduler core (DESIGN §6a): each run is one trigger that
 * looks at the run, does the next thing and schedules its next look. The steps are commands
 * through the command service (checked, recorded as operation records, guarded): setRecipe, then
 * startProgram (group and minutes); then it watches EC and pH against the recipe's targets ± the
 * machine's ecBand / phBand settings while the fertilizer flows. It stops safely (stopProgram,
 * the run failed with its reason) when a step's command is refused, fails, times out or expires,
 * or when EC or pH stays off band for over a minute. Every decision is read from the database
 * (the run row and the commands), so any node may take a run over; a step whose node stopped
 * between recording and sending is found among the machine's commands, never sent twice.
 */
export class FertigationRunner {
  constructor(
    private readonly deps: {
      db: Database;
      commands: CommandService;
      scheduler: Scheduler;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Registers the processors on this node's scheduler. */
  register(): void {
    // A run looks every few seconds while it watches (720 looks an hour): the looks are kept a
    // week, the run's own row (monitor_fertigation_run) is its history.
    this.deps.scheduler.registerProcessor<{ runId: string }>(
      FERTIGATION_TICK,
      (run) => this.tick(run),
      { keepRunsDays: 7 },
    );
  }

  /** Schedules a run's next look (in the caller's transaction when given one). */
  async lookAgain(tenantId: string, runId: string, inMs: number): Promise<void> {
    await this.deps.db.tenant(tenantId, (sql) =>
      scheduleOnce(sql, {
        tenantId,
        kind: FERTIGATION_TICK,
        key: runTriggerKey(runId),
        dueAt: new Date(Date.now() + inMs),
        payload: { runId },
      }),
    );
  }

  private async tick(occurrence: SchedulerRun<{ runId: string }>): Promise<RunOutcome> {
    const { tenantId } = occurrence;
    const runId = String(occurrence.payload.runId);
    const run = await this.deps.db.tenant(tenantId, (sql) => repo.byId(sql, runId));
    if (!run || run.status !== 'running')
      return { state: 'skipped', result: { status: run?.status ?? 'gone' } };
    const next = await this.advance(run, occurrence.runId);
    if (next !== undefined) await this.lookAgain(tenantId, runId, next);
    return { result: { step: run.steps.length, next: next ?? null } };
  }

  /** Does the run's next thing; answers when to look again (undefined: it ended). */
  private async advance(run: RunRow, occurrence: string): Promise<number | undefined> {
    const last = run.steps.at(-1);
    if (!last) {
      await this.sendStep(run, occurrence, 1, 'setRecipe', await this.recipeParams(run));
      return STEP_POLL_MS;
    }
    if (!last.commandId) {
      // This occurrence's earlier attempt stopped between recording the step and its command:
      // sendForRun answers the command that attempt recorded, if it got that far.
      await this.sendStep(run, occurrence, last.step, last.name, last.params);
      return STEP_POLL_MS;
    }
    const command = (
      await this.deps.db.tenant(run.tenant_id, (sql) => repo.commands(sql, [last.commandId!]))
    ).get(last.commandId);
    if (!command || OPEN.has(command.status)) return STEP_POLL_MS;
    if (command.status !== 'succeeded') {
      await this.failSafely(run, occurrence, {
        key:
          command.status === 'failed'
            ? 'monitor.fertigation.stepFailed'
            : 'monitor.fertigation.stepNoAnswer',
        params: {
          step: last.step,
          command: last.name,
          status: command.status,
          result: command.result ?? '',
        },
      });
      return undefined;
    }
    if (last.name === 'setRecipe') {
      const { program } = run;
      await this.sendStep(run, occurrence, 2, 'startProgram', {
        group: program.groupNo,
        waterBeforeMinutes: program.waterBeforeMinutes,
        fertilizerMinutes: program.fertilizerMinutes,
        waterAfterMinutes: program.waterAfterMinutes,
      });
      return STEP_POLL_MS;
    }
    return this.watch(run, occurrence, command.acked_at ?? new Date());
  }

  /** The program runs on the machine: EC and pH against their bands until its time is over. */
  private async watch(
    run: RunRow,
    occurrence: string,
    acceptedAt: Date,
  ): Promise<number | undefined> {
    const { db } = this.deps;
    let startedAt = run.program_started_at;
    if (!startedAt) {
      startedAt = acceptedAt;
      await db.tenant(run.tenant_id, (sql) =>
        repo.programStarted(sql, run.id, acceptedAt, totalMinutes(run)),
      );
    }
    const now = new Date();
    const endsAt = new Date(startedAt.getTime() + totalMinutes(run) * 60_000);
    if (now >= endsAt) {
      await db.tenant(run.tenant_id, (sql) => repo.end(sql, run.id, 'succeeded', null));
      return undefined;
    }
    const fertilizerFrom = new Date(startedAt.getTime() + run.program.waterBeforeMinutes * 60_000);
    const fertilizerTo = new Date(
      fertilizerFrom.getTime() + run.program.fertilizerMinutes * 60_000,
    );
    if (now >= fertilizerFrom) {
      const reason = await db.tenant(run.tenant_id, async (sql) => {
        const from = new Date(Math.max(fertilizerFrom.getTime(), now.getTime() - WATCH_WINDOW_MS));
        const readings = await repo.readings(sql, run.device_id, ['ec', 'ph'], from, fertilizerTo);
        const ecBand = Number(await areaSetting(sql, run.device_id, WATER_FERTILIZER, 'ecBand'));
        const phBand = Number(await areaSetting(sql, run.device_id, WATER_FERTILIZER, 'phBand'));
        return offBandReason(
          readings,
          [
            { key: 'ec', target: run.recipe.targetEc, band: ecBand },
            { key: 'ph', target: run.recipe.targetPh, band: phBand },
          ],
          now,
          fertilizerTo,
        );
      });
      if (reason) {
        await this.failSafely(run, occurrence, reason);
        return undefined;
      }
    }
    return Math.max(0, Math.min(WATCH_MS, endsAt.getTime() - now.getTime()));
  }

  /** setRecipe's parameters: the recipe's targets and ratios, those the product's command takes. */
  private async recipeParams(run: RunRow): Promise<Record<string, unknown>> {
    const { recipe } = run;
    const taken = new Set(
      await this.deps.db.tenant(run.tenant_id, (sql) =>
        repo.commandParamKeys(sql, run.device_id, 'setRecipe'),
      ),
    );
    const params: Record<string, unknown> = {
      targetEc: recipe.targetEc,
      targetPh: recipe.targetPh,
    };
    for (const key of ['ratioA', 'ratioB', 'ratioC', 'ratioAcid'] as const)
      if (recipe[key] !== null && taken.has(key)) params[key] = recipe[key];
    return params;
  }

  /**
   * Records a step, sends its command for this occurrence (idempotent by occurrence and step)
   * and records the command. A refused command fails the run safely; the machine guard refuses
   * a step of a run that was stopped meanwhile (by hand, on any node), since a stop and a step
   * are serialised by the machine's command lock.
   */
  private async sendStep(
    run: RunRow,
    occurrence: string,
    step: number,
    name: string,
    params: Record<string, unknown>,
  ): Promise<void> {
    const { db } = this.deps;
    const stored: StoredStep = {
      step,
      name,
      params,
      at: new Date().toISOString(),
      commandId: null,
    };
    await db.tenant(run.tenant_id, (sql) => repo.putStep(sql, run.id, stored));
    let commandId: string;
    try {
      commandId = (await this.sendForRun(run, occurrence, name, params, `step:${step}`)).id;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await this.failSafely(run, occurrence, {
        key: 'monitor.fertigation.stepNotSent',
        params: { step, command: name },
        detail: refusalDetail(error),
      });
      return;
    }
    await db.tenant(run.tenant_id, (sql) => repo.putStep(sql, run.id, { ...stored, commandId }));
  }

  private sendForRun(
    run: RunRow,
    occurrence: string,
    name: string,
    params: Record<string, unknown>,
    effect: string,
  ) {
    return this.deps.commands
      .sendForRun({
        tenantId: run.tenant_id,
        deviceId: run.device_id,
        name,
        params,
        expiresInSeconds: STEP_EXPIRES_SECONDS,
        username: run.started_by,
        origin: {
          kind: FERTIGATION_TICK,
          key: runTriggerKey(run.id),
          holder: runHolder(run.id),
          runId: occurrence,
        },
        effect: `fertigation:${run.id}:${effect}`,
      })
      .then((sent) => sent.view);
  }

  /** Ends the run as failed with its reason, then tells the machine to stop. */
  async failSafely(run: RunRow, occurrence: string, reason: RunReason): Promise<void> {
    const ended = await this.deps.db.tenant(run.tenant_id, (sql) =>
      repo.end(sql, run.id, 'failed', reason),
    );
    this.deps.log.warn({ run: run.id, reason }, 'fertigation run stopped on a fault');
    if (!ended) return;
    try {
      const sent = await this.sendForRun(run, occurrence, 'stopProgram', {}, 'stop');
      await this.deps.db.tenant(run.tenant_id, (sql) =>
        repo.appendStep(sql, run.id, {
          name: 'stopProgram',
          params: {},
          at: new Date().toISOString(),
          commandId: sent.id,
        }),
      );
    } catch (error) {
      // A stop already under way for the machine is as good; anything else is logged.
      if (error instanceof AppError && error.key === 'iot.commandConflict') return;
      this.deps.log.error({ err: error, run: run.id }, 'fertigation stop not sent');
    }
  }
}
