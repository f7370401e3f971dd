import {
  translate,
  type FertigationPhase,
  type FertigationRun,
  type FertigationRunQuery,
  type Lang,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { scheduleOnce, type RunOutcome, type Scheduler } from '../../scheduler/scheduler.service';
import {
  fertigationRunRepo as repo,
  type RunReason,
  type RunRow,
  type StepCommandRow,
} from './fertigation-run.repo';
import type { CommandService } from '../../iot/command/command.service';
import { endByHand } from './fertigation-guards';
import {
  FERTIGATION_START,
  FERTIGATION_TICK,
  runTriggerKey,
  totalMinutes,
} from './fertigation-runner';

const FERTIGATION_KIND = 'water_fertilizer';
/** How long a stop waits for a machine that is offline. */
const STOP_EXPIRES_SECONDS = 600;

const programProblem = (status: number, key: string, params?: Record<string, string | number>) =>
  new AppError(status, key, { params, fields: [{ field: 'programId', key, params }] });

/** A run's reason in one language (a nested reason fills its `message`). */
export function reasonText(lang: Lang, reason: RunReason | null): string | null {
  if (!reason) return null;
  const message = reason.detail ? translate(lang, reason.detail.key, reason.detail.params) : '';
  return translate(lang, reason.key, { ...reason.params, message });
}

/** Where a run is now (its steps, then the program's minutes from the machine's acceptance). */
function phaseOf(run: RunRow, now: Date): FertigationPhase {
  if (run.status !== 'running') return 'ended';
  if (!run.program_started_at) return run.steps.length <= 1 ? 'recipe' : 'starting';
  const minutes = (now.getTime() - run.program_started_at.getTime()) / 60_000;
  const { waterBeforeMinutes, fertilizerMinutes } = run.program;
  if (minutes < waterBeforeMinutes) return 'waterBefore';
  if (minutes < waterBeforeMinutes + fertilizerMinutes) return 'fertilizer';
  return 'waterAfter';
}

function viewOf(
  run: RunRow & { device_no?: string | null; device_name?: string | null },
  commands: Map<string, StepCommandRow>,
  lang: Lang,
): FertigationRun {
  return {
    id: run.id,
    deviceId: run.device_id,
    deviceNo: run.device_no ?? null,
    deviceName: run.device_name ?? null,
    programId: run.program_id,
    programName: run.program.programName,
    groupNo: run.program.groupNo,
    waterBeforeMinutes: run.program.waterBeforeMinutes,
    fertilizerMinutes: run.program.fertilizerMinutes,
    waterAfterMinutes: run.program.waterAfterMinutes,
    recipeName: run.recipe.recipeName,
    targetEc: run.recipe.targetEc,
    targetPh: run.recipe.targetPh,
    status: run.status,
    phase: phaseOf(run, new Date()),
    reason: reasonText(lang, run.reason),
    reasonKey: run.reason?.key ?? null,
    steps: run.steps.map((step) => {
      const command = step.commandId ? commands.get(step.commandId) : undefined;
      return {
        ...step,
        status: command?.status ?? null,
        result: command?.result ?? null,
        ackedAt: command?.acked_at?.toISOString() ?? null,
      };
    }),
    startedBy: run.started_by,
    startedAt: run.started_at.toISOString(),
    programStartedAt: run.program_started_at?.toISOString() ?? null,
    endsAt: run.ends_at?.toISOString() ?? null,
    endedAt: run.ended_at?.toISOString() ?? null,
  };
}

async function commandsOf(sql: Sql, runs: RunRow[]) {
  return repo.commands(
    sql,
    runs.flatMap((run) => run.steps.map((step) => step.commandId).filter((id) => id !== null)),
  );
}

/** Starting, stopping and reading fertigation runs (the runner does the steps). */
export class FertigationService {
  constructor(
    private readonly deps: { db: Database; commands: CommandService; scheduler: Scheduler },
  ) {}

  /** Registers the timed start of programs with a start time (FertigationProgram hooks). */
  register(): void {
    this.deps.scheduler.registerProcessor<{ programId: string }>(FERTIGATION_START, (run) =>
      this.scheduledStart(run.tenantId, String(run.payload.programId)),
    );
  }

  /**
   * Starts a program: one run per machine at a time (409 naming the running one), only an
   * enabled program and recipe on a fertigation machine the caller may see.
   */
  async start(auth: AuthContext, lang: Lang, programId: string): Promise<FertigationRun> {
    const run = await this.deps.db.tenant(auth, (sql) =>
      this.begin(sql, auth.tenantId, programId, { id: auth.userId, name: auth.username }),
    );
    this.deps.scheduler.poke();
    return this.view(auth, lang, run.id);
  }

  /**
   * Stops a program's run by hand: stopProgram goes to the machine in the caller's name and the
   * machine's hook ends the run as stopped in the same transaction (fertigation-guards.ts). A
   * stop already under way for the machine is as good: the run is ended by this call then.
   */
  async stop(auth: AuthContext, lang: Lang, programId: string): Promise<FertigationRun> {
    const running = await this.deps.db.tenant(auth, async (sql) => {
      const program = await repo.program(sql, programId);
      if (!program) throw programProblem(404, 'validation.refMissing');
      const run = await repo.runningOn(sql, program.device_id);
      if (!run || run.program_id !== programId)
        throw programProblem(409, 'monitor.fertigationNotRunning');
      return run;
    });
    try {
      await this.deps.commands.send(auth, {
        deviceId: running.device_id,
        name: 'stopProgram',
        params: {},
        expiresInSeconds: STOP_EXPIRES_SECONDS,
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.key !== 'iot.commandConflict') throw error;
      await this.deps.db.tenant(auth, (sql) => endByHand(sql, running.id, auth.username));
    }
    return this.view(auth, lang, running.id);
  }

  async runs(
    auth: AuthContext,
    lang: Lang,
    query: FertigationRunQuery,
  ): Promise<{ list: FertigationRun[]; total: number }> {
    return this.deps.db.tenant(auth, async (sql) => {
      const { rows, total } = await repo.page(
        sql,
        query,
        query.pageSize,
        (query.currentPage - 1) * query.pageSize,
      );
      const commands = await commandsOf(sql, rows);
      return { list: rows.map((row) => viewOf(row, commands, lang)), total };
    });
  }

  private async view(auth: AuthContext, lang: Lang, runId: string): Promise<FertigationRun> {
    return this.deps.db.tenant(auth, async (sql) => {
      const run = await repo.withDevice(sql, runId);
      if (!run) throw new AppError(404, 'error.recordNotFound');
      return viewOf(run, await commandsOf(sql, [run]), lang);
    });
  }

  /** Checks the program and records a running run with its first look due now. */
  private async begin(
    sql: Sql,
    tenantId: string,
    programId: string,
    who: { id: string | null; name: string },
  ): Promise<RunRow> {
    const program = await repo.program(sql, programId);
    if (!program) throw programProblem(404, 'validation.refMissing');
    if (program.status !== 1) throw programProblem(409, 'monitor.fertigationProgramDisabled');
    if (program.recipe_status !== 1) throw programProblem(409, 'monitor.fertigationRecipeDisabled');
    if (program.device_kind !== FERTIGATION_KIND)
      throw programProblem(400, 'monitor.fertigationWrongDevice');
    const run = await repo.insert(sql, {
      tenantId,
      deviceId: program.device_id,
      programId: program.id,
      program: {
        programName: program.program_name,
        groupNo: program.group_no,
        waterBeforeMinutes: program.water_before_minutes,
        fertilizerMinutes: program.fertilizer_minutes,
        waterAfterMinutes: program.water_after_minutes,
      },
      recipe: {
        recipeName: program.recipe_name,
        targetEc: program.target_ec,
        targetPh: program.target_ph,
        ratioA: program.ratio_a,
        ratioB: program.ratio_b,
        ratioC: program.ratio_c,
        ratioAcid: program.ratio_acid,
      },
      startedById: who.id,
      startedBy: who.name,
    });
    if (!run) {
      const running = await repo.runningOn(sql, program.device_id);
      throw programProblem(409, 'monitor.fertigationBusy', {
        program: running?.program.programName ?? '',
        run: running?.id ?? '',
      });
    }
    await scheduleOnce(sql, {
      tenantId,
      kind: FERTIGATION_TICK,
      key: runTriggerKey(run.id),
      dueAt: new Date(),
      payload: { runId: run.id },
    });
    return run;
  }

  /** A program's start time came: it runs unless its machine is busy or it was disabled. */
  private async scheduledStart(tenantId: string, programId: string): Promise<RunOutcome> {
    try {
      const run = await this.deps.db.tenant(tenantId, async (sql) => {
        const program = await repo.program(sql, programId);
        const editor = program?.updated_by ?? null;
        const { rows } = editor
          ? await sql.query<{ username: string }>('SELECT username FROM sys_user WHERE id = $1', [
              editor,
            ])
          : { rows: [] };
        return this.begin(sql, tenantId, programId, {
          id: editor,
          name: rows[0]?.username ?? 'scheduler',
        });
      });
      this.deps.scheduler.poke();
      return { result: { runId: run.id, minutes: totalMinutes(run) } };
    } catch (error) {
      // Not run this time (busy, disabled, gone): recorded as skipped with the reason.
      if (error instanceof AppError) return { state: 'skipped', result: { reason: error.key } };
      throw error;
    }
  }
}
