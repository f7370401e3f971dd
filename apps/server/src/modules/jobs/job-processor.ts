import type { FastifyBaseLogger } from 'fastify';
import type { ProcessorType } from '@shuili/contract';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { SweepResult } from '../iot/telemetry/retention-sweeper';
import type { Notifier } from '../notify/notifier';

/**
 * What a built-in processor is given for one instance (or one sub-task of a broadcast, map or
 * map-reduce instance). Processors are **idempotent by instance id** (`idempotencyKey`): a node
 * killed mid-run has its instance run again on another node with the same id, so a processor
 * that changes something records what it did under that key and looks for it first (a report
 * e-mail once per instance; a webhook sends the key as its Idempotency-Key header).
 */
export interface JobRunContext {
  tenantId: string;
  jobId: string;
  instanceId: string;
  /** `job-instance:<id>` or, for a sub-task, `job-task:<id>`: stable across attempts and nodes. */
  idempotencyKey: string;
  /** 1 on the first run of the instance (running times). */
  attempt: number;
  /** The job's parameters, checked against the processor's declaration (defaults filled). */
  params: Record<string, unknown>;
  /** The instance params (a run by hand, a workflow node's params), as given. */
  instanceParams: string | null;
  /** A workflow node's run: the workflow context so far (read only). */
  workflowContext: Record<string, unknown> | undefined;
  /** Aborted when the instance is stopped or passes its job's timeout: stop promptly. */
  signal: AbortSignal;
  /** Appends a line to the instance's log (instance details). */
  log(line: string, level?: 'info' | 'warn' | 'error'): Promise<void>;
  db: Database;
  config: Config;
  logger: FastifyBaseLogger;
  /** The node running it (task tracker address). */
  node: string;
  /** The tenant's IANA time zone. */
  timeZone: string;
  /** E-mail (the outbox): a data report, an alarm digest. Without it they send no e-mail. */
  notifier?: Notifier;
  /** The app's telemetry retention sweeper (app.telemetry.sweeper); else one is made. */
  telemetrySweeper?: { sweep(): Promise<SweepResult> };
}

/** What a processor answers: a short result for the instance, and what a workflow passes on. */
export interface JobRunResult {
  result: string;
  /** Merged into the workflow context when the instance is a workflow node's. */
  context?: Record<string, unknown>;
}

/** A sub-task a MAP / MAP_REDUCE processor splits its work into (unique name per instance). */
export interface JobSubTaskSpec {
  name: string;
  payload: Record<string, unknown>;
}

export interface JobProcessor {
  type: ProcessorType;
  /** Runs a standalone or broadcast instance (broadcast: once on every node). */
  run(ctx: JobRunContext): Promise<JobRunResult>;
  /** MAP / MAP_REDUCE: the pieces of work, spread across the nodes. */
  split?(ctx: JobRunContext): Promise<JobSubTaskSpec[]>;
  /** Runs one piece (a sub-task) on whichever node claimed it. */
  runTask?(ctx: JobRunContext, task: JobSubTaskSpec): Promise<JobRunResult>;
  /** MAP_REDUCE: the instance's result from its sub-tasks' results, once all have ended. */
  reduce?(
    ctx: JobRunContext,
    results: Array<{ name: string; ok: boolean; result: string | null }>,
  ): Promise<JobRunResult>;
}
