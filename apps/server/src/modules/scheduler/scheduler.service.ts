import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Sql } from '../../db/database';
import { NoNextFireTime, nextFireTime, recurrenceProblem, type Recurrence } from './recurrence';
import { schedulerRepo, type ClaimedTrigger } from './scheduler.repo';

export type { Recurrence } from './recurrence';

/**
 * # The scheduler core (DESIGN §6a, docs/scheduler.md)
 *
 * Everything that must happen at a time and survive a restart (a timed valve's close, rotation
 * steps, soil-moisture rules, fertigation programs, later the spec's jobs) is a **trigger row**
 * in PostgreSQL (`scheduler_trigger`), never a timer of the module's own:
 *
 * - a trigger has a `kind` (which processor runs it), a `key` (the caller's name for it, unique
 *   per tenant: scheduling the same key again replaces the trigger, so scheduling is idempotent),
 *   a fire time, a JSON `payload`, and optionally a {@link Recurrence};
 * - every node polls about once a second (and sooner when PostgreSQL announces a trigger due
 *   soon, LISTEN `shuili_scheduler`) and **claims** due triggers by compare-and-set in the same
 *   transaction that records the **run** (`scheduler_run`, unique per trigger and fire time):
 *   an occurrence is run by one node however many poll;
 * - the claim is a **lease** the node renews while its processor works; a node that dies leaves
 *   a lease that lapses, and another node takes the same run over (same run id, next attempt).
 *   Processors are therefore **idempotent by run id** (e.g. they look for what they already did
 *   under that id before doing it);
 * - a processor that throws is retried with backoff up to the trigger's `maxAttempts`; then the
 *   run is failed (a recurring trigger moves on to its next occurrence);
 * - recurring triggers compute their next fire time when an occurrence ends, in the tenant's
 *   time zone (sys_param `timeZone`); occurrences missed while no node ran are not replayed in a
 *   burst: the one due fires once (its `fireAt` says how late it is), then the next in the
 *   future. A processor decides whether a late occurrence still makes sense.
 *
 * Other modules use:
 * - {@link Scheduler.registerProcessor} (on `app.scheduler`) for each kind they own;
 * - {@link scheduleOnce}, {@link scheduleRecurring}, {@link ensureRecurring}, {@link cancel},
 *   {@link cancelPrefix}: plain
 *   functions over a `Sql`, usable inside the caller's own transaction (the trigger exists
 *   exactly when the caller's write commits). In a tenant transaction RLS confines them to
 *   that tenant.
 *
 * The job-scheduling issue extends this core (cron rules, job screens, workflows): new kinds,
 * new {@link Recurrence} types, same tables and claim.
 */

/** A trigger to create or replace. */
export interface ScheduleOnceInput {
  tenantId: string;
  /** The processor that runs it ({@link Scheduler.registerProcessor}). */
  kind: string;
  /** Unique per tenant; the same key again replaces the trigger (waiting again from dueAt). */
  key: string;
  dueAt: Date;
  payload?: Record<string, unknown>;
  /** Attempts before the run is failed (default 5). */
  maxAttempts?: number;
  /** Only this node may claim it (a broadcast task for each node). */
  pinnedNode?: string;
}

export interface ScheduleRecurringInput extends Omit<ScheduleOnceInput, 'dueAt'> {
  recurrence: Recurrence;
  /** The first fire time is the rule's first after this (default: now). */
  after?: Date;
  /** Default: the tenant's (sys_param `timeZone`). */
  timeZone?: string;
}

const DEFAULT_MAX_ATTEMPTS = 5;

/** Creates or replaces a one-off trigger; answers its id. Runs in the caller's transaction. */
export async function scheduleOnce(sql: Sql, input: ScheduleOnceInput): Promise<string> {
  if (Number.isNaN(input.dueAt.getTime())) throw new Error('scheduleOnce: invalid dueAt');
  return schedulerRepo.upsert(sql, {
    tenantId: input.tenantId,
    kind: input.kind,
    key: input.key,
    dueAt: input.dueAt,
    payload: input.payload ?? {},
    recurrence: null,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    pinnedNode: input.pinnedNode ?? null,
  });
}

/**
 * Creates or replaces a recurring trigger, first due at the rule's next fire time in the
 * tenant's time zone; answers its id and that time. Runs in the caller's transaction.
 */
export async function scheduleRecurring(
  sql: Sql,
  input: ScheduleRecurringInput,
): Promise<{ id: string; dueAt: Date }> {
  const problem = recurrenceProblem(input.recurrence);
  if (problem) throw new Error(`scheduleRecurring: ${problem}`);
  const timeZone = input.timeZone ?? (await schedulerRepo.timeZone(sql, input.tenantId));
  const after = input.after ?? new Date();
  const dueAt = nextFireTime(input.recurrence, after, after, timeZone);
  const id = await schedulerRepo.upsert(sql, {
    tenantId: input.tenantId,
    kind: input.kind,
    key: input.key,
    dueAt,
    payload: input.payload ?? {},
    recurrence: input.recurrence,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  });
  return { id, dueAt };
}

/**
 * Makes sure a recurring trigger exists, leaving one that does as it is (its due time, its
 * state): for the server's own periodic work, ensured by every node at start. Answers whether
 * it was created.
 */
export async function ensureRecurring(sql: Sql, input: ScheduleRecurringInput): Promise<boolean> {
  const problem = recurrenceProblem(input.recurrence);
  if (problem) throw new Error(`ensureRecurring: ${problem}`);
  const timeZone = input.timeZone ?? (await schedulerRepo.timeZone(sql, input.tenantId));
  const after = input.after ?? new Date();
  return schedulerRepo.insertIfAbsent(sql, {
    tenantId: input.tenantId,
    kind: input.kind,
    key: input.key,
    dueAt: nextFireTime(input.recurrence, after, after, timeZone),
    payload: input.payload ?? {},
    recurrence: input.recurrence,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  });
}

/** Cancels a trigger that has not ended (a run under way finishes, nothing follows it). */
export async function cancel(sql: Sql, key: string): Promise<boolean> {
  return (await schedulerRepo.cancel(sql, key)) > 0;
}

/** Cancels every trigger whose key starts with `prefix` (a rotation's remaining steps). */
export async function cancelPrefix(sql: Sql, prefix: string): Promise<number> {
  return schedulerRepo.cancel(sql, prefix, true);
}

/** What a processor is given: one occurrence of one trigger. */
export interface SchedulerRun<P = Record<string, unknown>> {
  /** The same across attempts (and across nodes taking over): the idempotency key. */
  runId: string;
  triggerId: string;
  tenantId: string;
  kind: string;
  key: string;
  /** The time this occurrence was due (a late start after an outage shows here). */
  fireAt: Date;
  /** 1 on the first attempt. */
  attempt: number;
  payload: P;
  /** The tenant's time zone (IANA). */
  timeZone: string;
  /** The node running it. */
  node: string;
}

/** What a processor answers: the run's end state (default succeeded) and what it decided. */
export interface RunOutcome {
  state?: 'succeeded' | 'skipped';
  result?: Record<string, unknown>;
}

export type Processor<P = Record<string, unknown>> = (
  run: SchedulerRun<P>,
) => Promise<RunOutcome | void>;

/**
 * A processor run inside the claim's own transaction (`sql`): short database work that must
 * commit with the claim and the trigger's move to its next fire time or not at all (a job's
 * trigger inserting the occurrence's instance). It holds no lease: it is over at commit.
 */
export type InlineProcessor<P = Record<string, unknown>> = (
  run: SchedulerRun<P>,
  sql: Sql,
) => Promise<RunOutcome | void>;

/** A failure not worth retrying (bad payload, a target that is gone): the run fails at once. */
export class PermanentRunFailure extends Error {}

/**
 * Thrown by a processor when this node cannot take the run (it lacks the CPU, memory or disk the
 * work needs): the trigger is given back untried, due again after `retryInMs`, for any node.
 */
export class DeclineRun extends Error {
  constructor(readonly retryInMs = 2_000) {
    super('declined by this node');
  }
}

export interface SchedulerOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** This node's name in leases and runs (default: host, process and a random part). */
  node?: string;
  /** How often due triggers are looked for (default 1000 ms). */
  pollMs?: number;
  /** How long a claim holds without renewal (default 60 s); renewed every third of it. */
  leaseMs?: number;
  /** First retry delay, doubled per attempt up to 5 minutes (default 5 s). */
  retryBaseMs?: number;
  /** Runs under way on this node at most (default 16). */
  concurrency?: number;
  /** How often what is over is forgotten ({@link Scheduler.purge}; default hourly). */
  purgeEveryMs?: number;
}

/** A one-off trigger that ended is kept this long (its state answers "did it run?"). */
export const FINISHED_TRIGGER_DAYS = 7;
/** Runs are the schedules' history on their screens: a year and a season's comparison. */
export const RUN_HISTORY_DAYS = 400;
const DAY_MS = 86_400_000;

const RELISTEN_MS = 2_000;
const MAX_RETRY_MS = 300_000;
/** How long stop() waits for runs under way before leaving them to their lapsing leases. */
const STOP_GRACE_MS = 10_000;

/**
 * The poller of one node: claims due triggers of the kinds registered here, runs their
 * processors under a renewed lease, records the outcome and moves the trigger on.
 */
export class Scheduler {
  readonly node: string;
  private readonly processors = new Map<string, Processor<never>>();
  private readonly inlineProcessors = new Map<string, InlineProcessor<never>>();
  private readonly keepRunsDays = new Map<string, number>();
  private readonly giveUps = new Map<string, (run: SchedulerRun, error: string) => Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private wake: { at: number; timer: NodeJS.Timeout } | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private listener: { close(): Promise<void> } | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(private readonly options: SchedulerOptions) {
    this.node =
      options.node ?? `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 60_000;
  }

  /**
   * Runs the triggers of `kind` with `processor` on this node (every node registers the same
   * processors; a node claims only kinds it has one for). One processor per kind.
   */
  registerProcessor<P = Record<string, unknown>>(
    kind: string,
    processor: Processor<P>,
    options: {
      /**
       * Days its runs are kept when the kind's history lives elsewhere (a fertigation run's
       * looks every few seconds: its own table is the history); default RUN_HISTORY_DAYS.
       */
      keepRunsDays?: number;
      /**
       * Told when a run is failed without its processor being called (its nodes kept stopping
       * mid-run until no attempt was left), so the kind's own records end too.
       */
      onGiveUp?: (run: SchedulerRun<P>, error: string) => Promise<void>;
    } = {},
  ): void {
    if (this.processors.has(kind) || this.inlineProcessors.has(kind))
      throw new Error(`scheduler: kind ${kind} already registered`);
    this.processors.set(kind, processor as Processor<never>);
    if (options.keepRunsDays !== undefined) this.keepRunsDays.set(kind, options.keepRunsDays);
    if (options.onGiveUp)
      this.giveUps.set(
        kind,
        options.onGiveUp as (run: SchedulerRun, error: string) => Promise<void>,
      );
    if (this.started) this.poke();
  }

  /**
   * Runs the triggers of `kind` inside their claim's transaction ({@link InlineProcessor}): the
   * processor's writes, the run's end and the trigger's next fire time commit together, so an
   * occurrence's effect exists exactly when the trigger has moved past it.
   */
  registerInlineProcessor<P = Record<string, unknown>>(
    kind: string,
    processor: InlineProcessor<P>,
    options: { keepRunsDays?: number } = {},
  ): void {
    if (this.processors.has(kind) || this.inlineProcessors.has(kind))
      throw new Error(`scheduler: kind ${kind} already registered`);
    this.inlineProcessors.set(kind, processor as InlineProcessor<never>);
    if (options.keepRunsDays !== undefined) this.keepRunsDays.set(kind, options.keepRunsDays);
    if (this.started) this.poke();
  }

  /** Starts polling (and listening for triggers due soon). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.poke(), this.options.pollMs ?? 1000);
    this.timer.unref();
    // Every node purges; the statements are idempotent, so two at once only repeat each other.
    this.purgeTimer = setInterval(
      () =>
        void this.purge().catch((error: unknown) =>
          this.options.log.warn({ err: error }, 'scheduler purge failed'),
        ),
      this.options.purgeEveryMs ?? 3_600_000,
    );
    this.purgeTimer.unref();
    await this.listen();
    this.poke();
  }

  /** Stops polling; waits for runs under way (a while), which finish and release their triggers. */
  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    clearTimeout(this.wake?.timer);
    clearTimeout(this.relisten);
    this.timer = undefined;
    this.wake = undefined;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close().catch(() => undefined);
    await this.polling;
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => {
        grace = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
  }

  /**
   * Forgets one-off triggers that ended more than {@link FINISHED_TRIGGER_DAYS} ago (a rotation
   * leaves a step trigger per group every day) and runs older than {@link RUN_HISTORY_DAYS}.
   */
  async purge(now = new Date()): Promise<{ triggers: number; runs: number }> {
    const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
    return this.options.db.system(async (sql) => {
      const purged = await schedulerRepo.purge(sql, {
        triggersBefore: before(FINISHED_TRIGGER_DAYS),
        runsBefore: before(RUN_HISTORY_DAYS),
      });
      for (const [kind, days] of this.keepRunsDays)
        purged.runs += await schedulerRepo.purgeRunsOfKind(sql, kind, before(days));
      return purged;
    });
  }

  /** Polls now (tests, and a processor that scheduled something due at once). */
  poke(): void {
    if (!this.started) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'scheduler poll failed'))
      .finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.poke();
        }
      });
  }

  /** Claims what is due (as much as this node has room for) and starts running it. */
  private async poll(): Promise<void> {
    await this.pollInline();
    const kinds = [...this.processors.keys()];
    const room = (this.options.concurrency ?? 16) - this.running.size;
    if (kinds.length === 0 || room <= 0) return;
    const claimed = await this.options.db.system(async (sql) => {
      const triggers = await schedulerRepo.claim(sql, {
        kinds,
        node: this.node,
        limit: room,
        leaseSeconds: this.leaseMs / 1000,
      });
      const runs: Array<{ trigger: ClaimedTrigger; runId: string | undefined }> = [];
      for (const trigger of triggers)
        runs.push({ trigger, runId: await schedulerRepo.startRun(sql, trigger, this.node) });
      return runs;
    });
    for (const { trigger, runId } of claimed) {
      const work = this.execute(trigger, runId).catch((error: unknown) =>
        this.options.log.error({ err: error, trigger: trigger.id }, 'scheduler run failed'),
      );
      this.running.add(work);
      void work.finally(() => {
        this.running.delete(work);
        // Room again: anything left due is claimed now rather than at the next tick.
        if (claimed.length >= room) this.poke();
      });
    }
  }

  /**
   * Claims and runs due inline triggers one at a time, each in a transaction of its own with its
   * processor, its run's end and its next fire time. A processor that throws is rolled back to
   * a savepoint and the occurrence is retried or failed in the same transaction.
   */
  private async pollInline(): Promise<void> {
    const kinds = [...this.inlineProcessors.keys()];
    if (kinds.length === 0) return;
    // Bounded, so a flood of due triggers cannot keep this node from its leased work.
    for (let round = 0; round < 200 && this.started; round += 1) {
      const claimedOne = await this.options.db.system(async (sql) => {
        const [trigger] = await schedulerRepo.claim(sql, {
          kinds,
          node: this.node,
          limit: 1,
          leaseSeconds: this.leaseMs / 1000,
        });
        if (!trigger) return false;
        const fireAt = new Date(trigger.fire_at);
        const runId = await schedulerRepo.startRun(sql, trigger, this.node);
        if (!runId) {
          await this.moveOn(sql, trigger, fireAt, 'done');
          return true;
        }
        const processor = this.inlineProcessors.get(trigger.kind) as InlineProcessor;
        await sql.query('SAVEPOINT inline_run');
        try {
          const outcome = await processor(
            this.runOf(
              trigger,
              runId,
              fireAt,
              await schedulerRepo.timeZone(sql, trigger.tenant_id),
            ),
            sql,
          );
          await sql.query('RELEASE SAVEPOINT inline_run');
          const mine = await schedulerRepo.finishRun(sql, {
            id: runId,
            attempt: trigger.attempts,
            state: outcome?.state ?? 'succeeded',
            result: outcome?.result,
          });
          if (mine) await this.moveOn(sql, trigger, fireAt, 'done');
        } catch (error) {
          await sql.query('ROLLBACK TO SAVEPOINT inline_run');
          const message = error instanceof Error ? error.message : String(error);
          this.options.log.warn({ err: error, trigger: trigger.id }, 'scheduler inline run error');
          if (error instanceof PermanentRunFailure || trigger.attempts >= trigger.max_attempts)
            await this.failIn(sql, trigger, runId, fireAt, message);
          else await this.retryIn(sql, trigger, runId, fireAt, message);
        }
        return true;
      });
      if (!claimedOne) return;
    }
    this.pollAgain = true;
  }

  /** What a processor is given for one claimed occurrence. */
  private runOf(
    trigger: ClaimedTrigger,
    runId: string,
    fireAt: Date,
    timeZone: string,
  ): SchedulerRun {
    return {
      runId,
      triggerId: trigger.id,
      tenantId: trigger.tenant_id,
      kind: trigger.kind,
      key: trigger.key,
      fireAt,
      attempt: trigger.attempts,
      payload: trigger.payload,
      timeZone,
      node: this.node,
    };
  }

  private async execute(trigger: ClaimedTrigger, runId: string | undefined): Promise<void> {
    const { db } = this.options;
    const fireAt = new Date(trigger.fire_at);
    // The occurrence ended before (it was scheduled again with the same time): not run twice.
    if (!runId) {
      await db.system((sql) => this.moveOn(sql, trigger, fireAt, 'done'));
      return;
    }
    if (trigger.attempts > trigger.max_attempts) {
      const error = 'no attempt left (its node stopped mid-run)';
      await this.fail(trigger, runId, fireAt, error);
      await this.giveUps.get(trigger.kind)?.(
        this.runOf(
          trigger,
          runId,
          fireAt,
          await db.system((sql) => schedulerRepo.timeZone(sql, trigger.tenant_id)),
        ),
        error,
      );
      return;
    }
    const processor = this.processors.get(trigger.kind) as Processor | undefined;
    if (!processor) return; // unregistered meanwhile: the lease lapses, another node runs it
    const renewal = setInterval(() => {
      void db
        .system((sql) => schedulerRepo.renew(sql, trigger, this.node, this.leaseMs / 1000))
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'lease renewal failed'));
    }, this.leaseMs / 3);
    renewal.unref();
    let outcome: RunOutcome | void;
    try {
      const timeZone = await db.system((sql) => schedulerRepo.timeZone(sql, trigger.tenant_id));
      outcome = await processor(this.runOf(trigger, runId, fireAt, timeZone));
    } catch (error) {
      clearInterval(renewal);
      if (error instanceof DeclineRun) {
        await db.system((sql) =>
          schedulerRepo.decline(
            sql,
            trigger,
            runId,
            this.node,
            new Date(Date.now() + error.retryInMs),
          ),
        );
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      this.options.log.warn({ err: error, trigger: trigger.id, run: runId }, 'scheduler run error');
      if (error instanceof PermanentRunFailure || trigger.attempts >= trigger.max_attempts)
        await this.fail(trigger, runId, fireAt, message);
      else await this.retry(trigger, runId, fireAt, message);
      return;
    }
    clearInterval(renewal);
    await db.system(async (sql) => {
      const mine = await schedulerRepo.finishRun(sql, {
        id: runId,
        attempt: trigger.attempts,
        state: outcome?.state ?? 'succeeded',
        result: outcome?.result,
      });
      if (mine) await this.moveOn(sql, trigger, fireAt, 'done');
    });
  }

  /** The same occurrence again after a backoff (the run keeps its id). */
  private async retry(
    trigger: ClaimedTrigger,
    runId: string,
    fireAt: Date,
    error: string,
  ): Promise<void> {
    await this.options.db.system((sql) => this.retryIn(sql, trigger, runId, fireAt, error));
  }

  private async retryIn(
    sql: Sql,
    trigger: ClaimedTrigger,
    runId: string,
    fireAt: Date,
    error: string,
  ): Promise<void> {
    const base = this.options.retryBaseMs ?? 5_000;
    const delay = Math.min(MAX_RETRY_MS, base * 2 ** (trigger.attempts - 1));
    const mine = await schedulerRepo.finishRun(sql, {
      id: runId,
      attempt: trigger.attempts,
      state: 'retrying',
      error,
    });
    if (!mine) return;
    await schedulerRepo.release(sql, trigger, this.node, {
      state: 'waiting',
      dueAt: new Date(Date.now() + delay),
      fireAt,
      attempts: trigger.attempts,
      error,
    });
  }

  private async fail(
    trigger: ClaimedTrigger,
    runId: string,
    fireAt: Date,
    error: string,
  ): Promise<void> {
    await this.options.db.system((sql) => this.failIn(sql, trigger, runId, fireAt, error));
  }

  private async failIn(
    sql: Sql,
    trigger: ClaimedTrigger,
    runId: string,
    fireAt: Date,
    error: string,
  ): Promise<void> {
    const mine = await schedulerRepo.finishRun(sql, {
      id: runId,
      attempt: trigger.attempts,
      state: 'failed',
      error,
    });
    if (mine) await this.moveOn(sql, trigger, fireAt, 'failed', error);
  }

  /** After an occurrence: a recurring trigger waits for its next one, a one-off one ends. */
  private async moveOn(
    sql: Sql,
    trigger: ClaimedTrigger,
    fireAt: Date,
    end: 'done' | 'failed',
    error?: string,
  ): Promise<void> {
    if (!trigger.recurrence) {
      await schedulerRepo.release(sql, trigger, this.node, { state: end, error: error ?? null });
      return;
    }
    const timeZone = await schedulerRepo.timeZone(sql, trigger.tenant_id);
    let next: Date;
    try {
      next = nextFireTime(trigger.recurrence, fireAt, new Date(), timeZone);
    } catch (error) {
      // A CRON rule whose last year has passed: the trigger has nothing left to fire.
      if (!(error instanceof NoNextFireTime)) throw error;
      await schedulerRepo.release(sql, trigger, this.node, { state: end, error: error.message });
      return;
    }
    await schedulerRepo.release(sql, trigger, this.node, {
      state: 'waiting',
      dueAt: next,
      fireAt: next,
      attempts: 0,
      error: error ?? null,
    });
  }

  /** Hears of triggers due within a minute (committed on any node) and wakes up for them. */
  private async listen(): Promise<void> {
    try {
      const listener = await this.options.db.listen('shuili_scheduler', {
        message: (payload) => this.wakeAt(Number(payload)),
        lost: () => {
          this.listener = undefined;
          this.listenLater();
        },
      });
      if (this.started) this.listener = listener;
      else await listener.close();
    } catch (error) {
      this.options.log.warn({ err: error }, 'scheduler listen failed; polling only');
      this.listenLater();
    }
  }

  private listenLater(): void {
    if (!this.started) return;
    clearTimeout(this.relisten);
    this.relisten = setTimeout(() => void this.listen(), RELISTEN_MS);
    this.relisten.unref();
  }

  /** Polls at `at` (epoch ms) unless a wake-up at or before it is already set. */
  private wakeAt(at: number): void {
    if (!this.started || !Number.isFinite(at)) return;
    if (this.wake && this.wake.at <= at) return;
    clearTimeout(this.wake?.timer);
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        this.poke();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.wake = { at, timer };
  }
}
