import type { Sql } from '../../db/database';
import { timeZoneOf, TIME_ZONE_PARAM } from '../iot/telemetry/telemetry-settings';
import type { Recurrence } from './recurrence';

/** A trigger as a node claimed it. */
export interface ClaimedTrigger {
  id: string;
  tenant_id: string;
  kind: string;
  key: string;
  fire_at: Date;
  payload: Record<string, unknown>;
  recurrence: Recurrence | null;
  attempts: number;
  max_attempts: number;
  /** Only this node may claim it (a broadcast task), or null. */
  pinned_node: string | null;
}

/** One run of a trigger as its history shows it. */
export interface RunRow {
  id: string;
  trigger_id: string;
  kind: string;
  key: string;
  fire_at: Date;
  state: 'running' | 'retrying' | 'succeeded' | 'failed' | 'skipped';
  attempt: number;
  node: string;
  started_at: Date;
  finished_at: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

const TRIGGER_COLUMNS = `t.id::text, t.tenant_id::text, t.kind, t.key, t.fire_at, t.payload,
  t.recurrence, t.attempts, t.max_attempts, t.pinned_node`;
const RUN_COLUMNS = `id::text, trigger_id::text, kind, key, fire_at, state, attempt, node,
  started_at, finished_at, result, error`;

/** A due waiting trigger, or a running one whose lease lapsed (its node died or hung). */
const CLAIMABLE = `((t.state = 'waiting' AND t.due_at <= now())
                    OR (t.state = 'running' AND t.lease_until <= now()))`;

export const schedulerRepo = {
  /**
   * Inserts a trigger or replaces the one of the same key (tenant-wide): waiting again from
   * `dueAt`, attempts and lease cleared. Answers its id.
   */
  async upsert(
    sql: Sql,
    row: {
      tenantId: string;
      kind: string;
      key: string;
      dueAt: Date;
      payload: Record<string, unknown>;
      recurrence: Recurrence | null;
      maxAttempts: number;
      pinnedNode?: string | null;
    },
  ): Promise<string> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO scheduler_trigger AS t
              (tenant_id, kind, key, fire_at, due_at, payload, recurrence, max_attempts,
               pinned_node)
       VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, key) DO UPDATE SET
         kind = EXCLUDED.kind, fire_at = EXCLUDED.fire_at, due_at = EXCLUDED.due_at,
         payload = EXCLUDED.payload, recurrence = EXCLUDED.recurrence,
         max_attempts = EXCLUDED.max_attempts, pinned_node = EXCLUDED.pinned_node,
         state = 'waiting', attempts = 0,
         lease_owner = NULL, lease_until = NULL, last_error = NULL, updated_at = now()
       RETURNING id::text`,
      [
        row.tenantId,
        row.kind,
        row.key,
        row.dueAt,
        JSON.stringify(row.payload),
        row.recurrence ? JSON.stringify(row.recurrence) : null,
        row.maxAttempts,
        row.pinnedNode ?? null,
      ],
    );
    return rows[0]!.id;
  },

  /** Inserts a trigger unless one of the key exists (whatever its state); answers whether. */
  async insertIfAbsent(
    sql: Sql,
    row: {
      tenantId: string;
      kind: string;
      key: string;
      dueAt: Date;
      payload: Record<string, unknown>;
      recurrence: Recurrence | null;
      maxAttempts: number;
    },
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `INSERT INTO scheduler_trigger
              (tenant_id, kind, key, fire_at, due_at, payload, recurrence, max_attempts)
       VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, key) DO NOTHING RETURNING id`,
      [
        row.tenantId,
        row.kind,
        row.key,
        row.dueAt,
        JSON.stringify(row.payload),
        row.recurrence ? JSON.stringify(row.recurrence) : null,
        row.maxAttempts,
      ],
    );
    return rows.length > 0;
  },

  /**
   * Cancels the triggers that have not ended of one key, or (`prefix`) of every key starting
   * with it; answers how many.
   */
  async cancel(sql: Sql, key: string, prefix = false): Promise<number> {
    const { rows } = await sql.query<{ id: string }>(
      `UPDATE scheduler_trigger SET state = 'cancelled', lease_owner = NULL, lease_until = NULL,
              updated_at = now()
        WHERE state IN ('waiting', 'running') AND ${prefix ? 'starts_with(key, $1)' : 'key = $1'}
        RETURNING id::text`,
      [key],
    );
    return rows.length;
  },

  /**
   * Claims up to `limit` claimable triggers of the kinds this node processes: row locks taken
   * with SKIP LOCKED (another node's claim in progress is passed over, not waited for), then
   * compare-and-set on the state, so each occurrence is claimed by one node.
   */
  async claim(
    sql: Sql,
    claim: { kinds: readonly string[]; node: string; limit: number; leaseSeconds: number },
  ): Promise<ClaimedTrigger[]> {
    const { rows } = await sql.query<ClaimedTrigger>(
      `WITH picked AS (
         SELECT t.id FROM scheduler_trigger t
          WHERE t.kind = ANY ($1::text[]) AND ${CLAIMABLE}
            AND (t.pinned_node IS NULL OR t.pinned_node = $2)
          ORDER BY t.due_at, t.id LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE scheduler_trigger t
          SET state = 'running', attempts = t.attempts + 1, lease_owner = $2,
              lease_until = now() + make_interval(secs => $4), updated_at = now()
         FROM picked
        WHERE t.id = picked.id AND ${CLAIMABLE}
        RETURNING ${TRIGGER_COLUMNS}`,
      [claim.kinds, claim.node, claim.limit, claim.leaseSeconds],
    );
    return rows;
  },

  /**
   * Records (or takes over) the run of a claimed occurrence, in the claim's transaction.
   * Answers its id, or undefined when that occurrence already ended (it is not run again).
   */
  async startRun(sql: Sql, trigger: ClaimedTrigger, node: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO scheduler_run (tenant_id, trigger_id, kind, key, fire_at, attempt, node)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (trigger_id, fire_at) DO UPDATE SET
         attempt = EXCLUDED.attempt, node = EXCLUDED.node, state = 'running'
         WHERE scheduler_run.state IN ('running', 'retrying')
       RETURNING id::text`,
      [
        trigger.tenant_id,
        trigger.id,
        trigger.kind,
        trigger.key,
        trigger.fire_at,
        trigger.attempts,
        node,
      ],
    );
    const runId = rows[0]?.id;
    if (runId)
      await sql.query('UPDATE scheduler_trigger SET last_run_id = $2 WHERE id = $1', [
        trigger.id,
        runId,
      ]);
    return runId;
  },

  /** Extends this node's lease of a trigger it still holds; answers whether it still does. */
  async renew(
    sql: Sql,
    trigger: { id: string; attempts: number },
    node: string,
    leaseSeconds: number,
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `UPDATE scheduler_trigger SET lease_until = now() + make_interval(secs => $4)
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempts = $3
        RETURNING id`,
      [trigger.id, node, trigger.attempts, leaseSeconds],
    );
    return rows.length > 0;
  },

  /** Ends a run of this attempt; answers false when another node has taken it over meanwhile. */
  async finishRun(
    sql: Sql,
    run: {
      id: string;
      attempt: number;
      state: RunRow['state'];
      result?: unknown;
      error?: string | null;
    },
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `UPDATE scheduler_run
          SET state = $3, result = coalesce($4::jsonb, result), error = $5,
              finished_at = CASE WHEN $3 = 'retrying' THEN NULL ELSE now() END
        WHERE id = $1 AND attempt = $2 AND state = 'running'
        RETURNING id`,
      [
        run.id,
        run.attempt,
        run.state,
        run.result === undefined ? null : JSON.stringify(run.result),
        run.error ?? null,
      ],
    );
    return rows.length > 0;
  },

  /**
   * Moves a trigger this node holds on: waiting again at `dueAt` (a retry: same occurrence; a
   * recurrence: the next one), or ended. Compare-and-set on the lease: a trigger cancelled or
   * scheduled anew meanwhile keeps what its caller made of it.
   */
  async release(
    sql: Sql,
    trigger: { id: string; attempts: number },
    node: string,
    next:
      | { state: 'waiting'; dueAt: Date; fireAt: Date; attempts: number; error?: string | null }
      | { state: 'done' | 'failed'; error?: string | null },
  ): Promise<void> {
    await sql.query(
      `UPDATE scheduler_trigger
          SET state = $4, due_at = coalesce($5, due_at), fire_at = coalesce($6, fire_at),
              attempts = coalesce($7, attempts), last_error = $8,
              lease_owner = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempts = $3`,
      [
        trigger.id,
        node,
        trigger.attempts,
        next.state,
        next.state === 'waiting' ? next.dueAt : null,
        next.state === 'waiting' ? next.fireAt : null,
        next.state === 'waiting' ? next.attempts : null,
        next.error ?? null,
      ],
    );
  },

  /**
   * Gives a claimed trigger back untried (its node lacks what the work needs): waiting again at
   * `dueAt`, the attempt not counted, the run back to retrying for whichever node takes it.
   */
  async decline(
    sql: Sql,
    trigger: { id: string; attempts: number },
    runId: string,
    node: string,
    dueAt: Date,
  ): Promise<void> {
    const { rows } = await sql.query(
      `UPDATE scheduler_trigger
          SET state = 'waiting', due_at = $4, attempts = attempts - 1, lease_owner = NULL,
              lease_until = NULL, updated_at = now()
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempts = $3
        RETURNING id`,
      [trigger.id, node, trigger.attempts, dueAt],
    );
    if (rows.length > 0)
      await sql.query(
        `UPDATE scheduler_run SET state = 'retrying', attempt = attempt - 1
          WHERE id = $1 AND state = 'running'`,
        [runId],
      );
  },

  /** A tenant's time zone, read across tenants (the poller runs outside any tenant). */
  async timeZone(sql: Sql, tenantId: string): Promise<string> {
    const { rows } = await sql.query<{ param_value: string | null }>(
      'SELECT param_value FROM sys_param WHERE tenant_id = $1 AND param_key = $2 LIMIT 1',
      [tenantId, TIME_ZONE_PARAM],
    );
    return timeZoneOf(rows[0]?.param_value);
  },

  /** The newest runs of triggers whose key starts with a prefix (RLS: the caller's tenant). */
  async runs(sql: Sql, filter: { keyPrefix: string; limit: number }): Promise<RunRow[]> {
    const { rows } = await sql.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM scheduler_run r
        WHERE starts_with(key, $1) ORDER BY r.fire_at DESC, r.id DESC LIMIT $2`,
      [filter.keyPrefix, filter.limit],
    );
    return rows;
  },

  /** A trigger's state by key (RLS: the caller's tenant). */
  async trigger(
    sql: Sql,
    key: string,
  ): Promise<
    | {
        id: string;
        state: string;
        due_at: Date;
        fire_at: Date;
        attempts: number;
        payload: Record<string, unknown>;
      }
    | undefined
  > {
    const { rows } = await sql.query<{
      id: string;
      state: string;
      due_at: Date;
      fire_at: Date;
      attempts: number;
      payload: Record<string, unknown>;
    }>(
      `SELECT id::text, state, due_at, fire_at, attempts, payload FROM scheduler_trigger
        WHERE key = $1`,
      [key],
    );
    return rows[0];
  },

  /**
   * Forgets what is over: one-off triggers that ended (done, failed, cancelled) before
   * `triggersBefore`, and runs (with their recorded effects) that finished before `runsBefore`.
   * Recurring triggers stay: they wait for their next occurrence.
   */
  async purge(
    sql: Sql,
    cutoffs: { triggersBefore: Date; runsBefore: Date },
  ): Promise<{ triggers: number; runs: number }> {
    const triggers = await sql.query(
      `DELETE FROM scheduler_trigger
        WHERE state IN ('done', 'failed', 'cancelled') AND recurrence IS NULL AND updated_at < $1
       RETURNING id`,
      [cutoffs.triggersBefore.toISOString()],
    );
    const { rows } = await sql.query<{ id: string }>(
      `DELETE FROM scheduler_run
        WHERE state IN ('succeeded', 'failed', 'skipped') AND finished_at < $1
       RETURNING id::text`,
      [cutoffs.runsBefore.toISOString()],
    );
    await forgetEffects(sql, rows);
    return { triggers: triggers.rows.length, runs: rows.length };
  },

  /** Forgets the finished runs of one kind before `before` (a kind of shorter history). */
  async purgeRunsOfKind(sql: Sql, kind: string, before: Date): Promise<number> {
    const { rows } = await sql.query<{ id: string }>(
      `DELETE FROM scheduler_run
        WHERE kind = $1 AND state IN ('succeeded', 'failed', 'skipped') AND finished_at < $2
       RETURNING id::text`,
      [kind, before.toISOString()],
    );
    await forgetEffects(sql, rows);
    return rows.length;
  },
};

/** The effects recorded by runs that are gone. */
async function forgetEffects(sql: Sql, runs: Array<{ id: string }>): Promise<void> {
  if (runs.length > 0)
    await sql.query('DELETE FROM scheduler_run_effect WHERE run_id = ANY($1::bigint[])', [
      runs.map((run) => run.id),
    ]);
}
