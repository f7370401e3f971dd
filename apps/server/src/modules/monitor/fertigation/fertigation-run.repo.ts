import type { FertigationRunStatus } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** The program as a run keeps it (a snapshot: the program may change or go while it runs). */
export interface ProgramSnapshot {
  programName: string;
  groupNo: number;
  waterBeforeMinutes: number;
  fertilizerMinutes: number;
  waterAfterMinutes: number;
}

/** The recipe as a run keeps it. */
export interface RecipeSnapshot {
  recipeName: string;
  targetEc: number;
  targetPh: number;
  ratioA: number | null;
  ratioB: number | null;
  ratioC: number | null;
  ratioAcid: number | null;
}

/** One command a run sent (its outcome is the command's: iot_command). */
export interface StoredStep {
  step: number;
  name: string;
  params: Record<string, unknown>;
  at: string;
  commandId: string | null;
}

/** Why a run ended badly: a message key and its parameters, translated for each reader. */
export interface RunReason {
  key: string;
  params: Record<string, string | number>;
  /** A nested message (a refused command's own reason), filling the `message` placeholder. */
  detail?: { key: string; params: Record<string, string | number> };
}

export interface RunRow {
  id: string;
  tenant_id: string;
  device_id: string;
  program_id: string | null;
  program: ProgramSnapshot;
  recipe: RecipeSnapshot;
  status: FertigationRunStatus;
  reason: RunReason | null;
  steps: StoredStep[];
  program_started_at: Date | null;
  ends_at: Date | null;
  started_by_id: string | null;
  started_by: string;
  started_at: Date;
  ended_at: Date | null;
}

/** A program with its recipe and machine, as a start needs them. */
export interface ProgramRow {
  id: string;
  program_name: string;
  device_id: string;
  device_kind: string | null;
  group_no: number;
  water_before_minutes: number;
  fertilizer_minutes: number;
  water_after_minutes: number;
  status: number;
  updated_by: string | null;
  recipe_name: string;
  recipe_status: number;
  target_ec: number;
  target_ph: number;
  ratio_a: number | null;
  ratio_b: number | null;
  ratio_c: number | null;
  ratio_acid: number | null;
}

/** A command's state as a step reads it. */
export interface StepCommandRow {
  id: string;
  status: string;
  result: string | null;
  acked_at: Date | null;
}

/** A run's columns, of the table itself or of an alias (`r.`). */
const runColumns = (t = '') => `${t}id::text AS id, ${t}tenant_id::text AS tenant_id,
  ${t}device_id::text AS device_id, ${t}program_id::text AS program_id, ${t}program, ${t}recipe,
  ${t}status, ${t}reason, ${t}steps, ${t}program_started_at, ${t}ends_at,
  ${t}started_by_id::text AS started_by_id, ${t}started_by, ${t}started_at, ${t}ended_at`;
const RUN_COLUMNS = runColumns();

/** SQL of programs and runs, in a tenant context (RLS: the tenant, and a caller's zones). */
export const fertigationRunRepo = {
  async program(sql: Sql, programId: string): Promise<ProgramRow | undefined> {
    const { rows } = await sql.query<ProgramRow>(
      `SELECT g.id::text, g.program_name, g.device_id::text, p.device_kind, g.group_no,
              g.water_before_minutes, g.fertilizer_minutes, g.water_after_minutes, g.status,
              coalesce(g.updated_by, g.created_by)::text AS updated_by,
              r.recipe_name, r.status AS recipe_status, r.target_ec, r.target_ph,
              r.ratio_a, r.ratio_b, r.ratio_c, r.ratio_acid
         FROM monitor_fertigation_program g
         JOIN monitor_fertilizer_recipe r ON r.id = g.recipe_id
         JOIN iot_device d ON d.id = g.device_id
         LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE g.id = $1`,
      [programId],
    );
    return rows[0];
  },

  /** The run under way on a machine, if any. */
  async runningOn(sql: Sql, deviceId: string): Promise<RunRow | undefined> {
    const { rows } = await sql.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM monitor_fertigation_run
        WHERE device_id = $1 AND status = 'running'`,
      [deviceId],
    );
    return rows[0];
  },

  /** Inserts a running run; undefined when the machine already runs one (unique index). */
  async insert(
    sql: Sql,
    row: {
      tenantId: string;
      deviceId: string;
      programId: string;
      program: ProgramSnapshot;
      recipe: RecipeSnapshot;
      startedById: string | null;
      startedBy: string;
    },
  ): Promise<RunRow | undefined> {
    const { rows } = await sql.query<RunRow>(
      `INSERT INTO monitor_fertigation_run
              (tenant_id, device_id, program_id, program, recipe, started_by_id, started_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, device_id) WHERE status = 'running' DO NOTHING
       RETURNING ${RUN_COLUMNS}`,
      [
        row.tenantId,
        row.deviceId,
        row.programId,
        JSON.stringify(row.program),
        JSON.stringify(row.recipe),
        row.startedById,
        row.startedBy,
      ],
    );
    return rows[0];
  },

  async byId(sql: Sql, runId: string, lock = false): Promise<RunRow | undefined> {
    const { rows } = await sql.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM monitor_fertigation_run WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [runId],
    );
    return rows[0];
  },

  /** Appends a step, or replaces the step of the same number (its command id now known). */
  async putStep(sql: Sql, runId: string, step: StoredStep): Promise<void> {
    await sql.query(
      `UPDATE monitor_fertigation_run
          SET steps = (SELECT coalesce(jsonb_agg(s ORDER BY (s->>'step')::int), '[]'::jsonb)
                         FROM jsonb_array_elements(steps) s WHERE (s->>'step')::int <> $2)
                      || jsonb_build_array($3::jsonb),
              updated_at = now()
        WHERE id = $1`,
      [runId, step.step, JSON.stringify(step)],
    );
  },

  /** Appends a step numbered after the last (a stop, which any node or request may send). */
  async appendStep(sql: Sql, runId: string, step: Omit<StoredStep, 'step'>): Promise<void> {
    await sql.query(
      `UPDATE monitor_fertigation_run
          SET steps = steps || jsonb_build_array($2::jsonb || jsonb_build_object('step',
                (SELECT coalesce(max((s->>'step')::int), 0) + 1 FROM jsonb_array_elements(steps) s))),
              updated_at = now()
        WHERE id = $1`,
      [runId, JSON.stringify(step)],
    );
  },

  /** The machine accepted startProgram at `at`: its own time runs from then. */
  async programStarted(sql: Sql, runId: string, at: Date, totalMinutes: number): Promise<void> {
    await sql.query(
      `UPDATE monitor_fertigation_run
          SET program_started_at = $2, ends_at = $2::timestamptz + make_interval(mins => $3),
              updated_at = now()
        WHERE id = $1 AND status = 'running'`,
      [runId, at, totalMinutes],
    );
  },

  /** Ends a running run; answers whether this call ended it (compare-and-set on the status). */
  async end(
    sql: Sql,
    runId: string,
    status: Exclude<FertigationRunStatus, 'running'>,
    reason: RunReason | null,
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `UPDATE monitor_fertigation_run
          SET status = $2, reason = $3, ended_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'running' RETURNING id`,
      [runId, status, reason ? JSON.stringify(reason) : null],
    );
    return rows.length > 0;
  },

  /** The parameter keys a machine's product declares for one of its commands. */
  async commandParamKeys(sql: Sql, deviceId: string, command: string): Promise<string[]> {
    const { rows } = await sql.query<{ key: string }>(
      `SELECT param->>'key' AS key
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        CROSS JOIN jsonb_array_elements(p.thing_model->'commands') c
        CROSS JOIN jsonb_array_elements(c->'params') param
        WHERE d.id = $1 AND c->>'key' = $2`,
      [deviceId, command],
    );
    return rows.map((row) => row.key);
  },

  async commands(sql: Sql, ids: string[]): Promise<Map<string, StepCommandRow>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql.query<StepCommandRow>(
      `SELECT id::text, status, result, acked_at FROM iot_command WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  },

  /**
   * The command a step sent before its node stopped, if it got that far: the newest of that
   * name for the machine since the step began (so a step is never sent twice).
   */
  async sentSince(
    sql: Sql,
    deviceId: string,
    name: string,
    since: Date,
  ): Promise<string | undefined> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id::text FROM iot_command
        WHERE device_id = $1 AND name = $2 AND created_at >= $3 ORDER BY id DESC LIMIT 1`,
      [deviceId, name, since],
    );
    return rows[0]?.id;
  },

  /** Readings of some keys of a device from a time on, oldest first (EC and pH in a window). */
  async readings(
    sql: Sql,
    deviceId: string,
    keys: string[],
    from: Date,
    to: Date,
  ): Promise<Array<{ key: string; ts: Date; value: number }>> {
    const { rows } = await sql.query<{ key: string; ts: Date; value: number }>(
      `SELECT key, ts, value FROM iot_telemetry
        WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
          AND device_id = $1 AND key = ANY($2::text[]) AND ts >= $3 AND ts <= $4
          AND value IS NOT NULL
        ORDER BY ts, key`,
      [deviceId, keys, from, to],
    );
    return rows;
  },

  async withDevice(
    sql: Sql,
    runId: string,
  ): Promise<(RunRow & { device_no: string | null; device_name: string | null }) | undefined> {
    const { rows } = await sql.query<
      RunRow & { device_no: string | null; device_name: string | null }
    >(
      `SELECT ${runColumns('r.')}, d.device_no, d.device_name
         FROM monitor_fertigation_run r LEFT JOIN iot_device d ON d.id = r.device_id
        WHERE r.id = $1`,
      [runId],
    );
    return rows[0];
  },

  async page(
    sql: Sql,
    filter: { deviceId?: string; programId?: string; status?: string },
    limit: number,
    offset: number,
  ): Promise<{
    rows: Array<RunRow & { device_no: string | null; device_name: string | null }>;
    total: number;
  }> {
    const where = `($1::bigint IS NULL OR r.device_id = $1) AND ($2::bigint IS NULL OR r.program_id = $2)
       AND ($3::text IS NULL OR r.status = $3)`;
    const params = [filter.deviceId ?? null, filter.programId ?? null, filter.status ?? null];
    const { rows } = await sql.query<
      RunRow & { device_no: string | null; device_name: string | null }
    >(
      `SELECT ${runColumns('r.')}, d.device_no, d.device_name
         FROM monitor_fertigation_run r JOIN iot_device d ON d.id = r.device_id
        WHERE ${where} ORDER BY r.id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const count = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM monitor_fertigation_run r
         JOIN iot_device d ON d.id = r.device_id WHERE ${where}`,
      params,
    );
    return { rows, total: count.rows[0]?.total ?? 0 };
  },
};
