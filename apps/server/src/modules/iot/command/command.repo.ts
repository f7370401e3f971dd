import type { CommandStatus, CommandView } from '@shuili/contract';
import { lockKey, type Sql } from '../../../db/database';

export interface CommandRow {
  id: string;
  tenant_id: string;
  device_id: string | null;
  username: string;
  name: string;
  params: string;
  status: CommandStatus;
  timeout_seconds: number;
  expires_at: Date;
  created_at: Date;
  sent_at: Date | null;
  acked_at: Date | null;
  latency_ms: number | null;
  result: string | null;
}

/** A device as a command needs it: where to send, whether it is there, what it accepts. */
export interface CommandDevice {
  id: string;
  device_no: string;
  device_name: string;
  /** Its product's device kind (command guards are registered per kind). */
  kind: string | null;
  online: boolean;
  thing_model: unknown;
}

const COLUMNS = `id::text, tenant_id::text, device_id::text, username, name, params, status,
  timeout_seconds, expires_at, created_at, sent_at, acked_at, latency_ms, result`;

export function toView(row: CommandRow): CommandView {
  let params: Record<string, unknown> = {};
  try {
    params = JSON.parse(row.params) as Record<string, unknown>;
  } catch {
    // stored by the service as JSON; an unreadable value shows as no parameters
  }
  return {
    id: row.id,
    deviceId: row.device_id,
    name: row.name,
    params,
    status: row.status,
    username: row.username,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
    ackedAt: row.acked_at?.toISOString() ?? null,
    latencyMs: row.latency_ms,
    result: row.result,
  };
}

export const commandRepo = {
  async device(sql: Sql, deviceId: string): Promise<CommandDevice | undefined> {
    const { rows } = await sql.query<CommandDevice>(
      `SELECT d.id::text, d.device_no, d.device_name, p.device_kind AS kind,
              coalesce(d.online, false) AS online, p.thing_model
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1`,
      [deviceId],
    );
    return rows[0];
  },

  /**
   * Serialises commands to one device until the transaction ends, on every node: the conflict
   * check and the insert must not interleave with another request's.
   */
  async lockDevice(sql: Sql, deviceId: string): Promise<void> {
    await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [
      lockKey(`iot_command:${deviceId}`),
    ]);
  },

  /**
   * A command of the same name still under way on the device, for the same target: `target`
   * holds the parameters that pick what it acts on (openValve's channel), so opening channel 2
   * while channel 1's open is under way is no conflict.
   */
  async active(
    sql: Sql,
    deviceId: string,
    name: string,
    target: Record<string, unknown> = {},
  ): Promise<CommandRow | undefined> {
    const { rows } = await sql.query<CommandRow>(
      `SELECT ${COLUMNS} FROM iot_command
        WHERE device_id = $1 AND name = $2 AND status IN ('pending', 'sent')
          AND ($3::jsonb = '{}'::jsonb OR params::jsonb @> $3::jsonb)
        ORDER BY id LIMIT 1`,
      [deviceId, name, JSON.stringify(target)],
    );
    return rows[0];
  },

  /** Commands of these names under way on a device (pending or sent), oldest first. */
  async underWay(sql: Sql, deviceId: string, names: readonly string[]): Promise<CommandRow[]> {
    const { rows } = await sql.query<CommandRow>(
      `SELECT ${COLUMNS} FROM iot_command
        WHERE device_id = $1 AND name = ANY ($2::text[]) AND status IN ('pending', 'sent')
        ORDER BY id`,
      [deviceId, names],
    );
    return rows;
  },

  /**
   * Records that a scheduler run did something (`effect`: "open:12:3") with this command;
   * answers the command an earlier attempt of the run recorded instead, if any.
   */
  async claimRunEffect(
    sql: Sql,
    effect: { tenantId: string; runId: string; effect: string },
  ): Promise<{ fresh: boolean; commandId: string | null }> {
    const { rows } = await sql.query<{ command_id: string | null; fresh: boolean }>(
      `WITH inserted AS (
         INSERT INTO scheduler_run_effect (tenant_id, run_id, effect) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, effect) DO NOTHING RETURNING command_id::text)
       SELECT command_id, true AS fresh FROM inserted
       UNION ALL
       SELECT command_id::text, false FROM scheduler_run_effect
        WHERE run_id = $2 AND effect = $3 AND NOT EXISTS (SELECT 1 FROM inserted)`,
      [effect.tenantId, effect.runId, effect.effect],
    );
    return { fresh: rows[0]?.fresh ?? true, commandId: rows[0]?.command_id ?? null };
  },

  async setRunEffectCommand(
    sql: Sql,
    effect: { runId: string; effect: string; commandId: string },
  ): Promise<void> {
    await sql.query(
      'UPDATE scheduler_run_effect SET command_id = $3 WHERE run_id = $1 AND effect = $2',
      [effect.runId, effect.effect, effect.commandId],
    );
  },

  async insert(
    sql: Sql,
    row: {
      tenantId: string;
      userId: string | null;
      username: string;
      deviceId: string;
      name: string;
      params: Record<string, unknown>;
      timeoutSeconds: number;
      expiresInSeconds: number;
    },
  ): Promise<CommandRow> {
    const { rows } = await sql.query<CommandRow>(
      `INSERT INTO iot_command (tenant_id, created_by, username, device_id, name, params, status,
                                timeout_seconds, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, now() + make_interval(secs => $8))
       RETURNING ${COLUMNS}`,
      [
        row.tenantId,
        row.userId,
        row.username,
        row.deviceId,
        row.name,
        JSON.stringify(row.params),
        row.timeoutSeconds,
        row.expiresInSeconds,
      ],
    );
    return rows[0]!;
  },

  async byId(sql: Sql, id: string): Promise<CommandRow | undefined> {
    const { rows } = await sql.query<CommandRow>(
      `SELECT ${COLUMNS} FROM iot_command WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  async recent(sql: Sql, deviceId: string, limit: number): Promise<CommandRow[]> {
    const { rows } = await sql.query<CommandRow>(
      `SELECT ${COLUMNS} FROM iot_command WHERE device_id = $1 ORDER BY id DESC LIMIT $2`,
      [deviceId, limit],
    );
    return rows;
  },

  async deviceOnline(sql: Sql, deviceId: string): Promise<boolean> {
    const { rows } = await sql.query<{ online: boolean }>(
      'SELECT coalesce(online, false) AS online FROM iot_device WHERE id = $1',
      [deviceId],
    );
    return rows[0]?.online ?? false;
  },

  /**
   * Claims pending commands of a device for delivery, oldest first: all of them, or (`upTo`, a
   * command just recorded for an online device) those up to that one, so a newer command never
   * overtakes an older one still waiting. Claims of one device wait for each other (a
   * transaction-scoped advisory lock on the device): rows are locked one by one as the scan meets
   * them, so two claims running together (the broker's presence and the device's own status
   * message, or two nodes) could otherwise split the queue and send its halves in either order.
   * Only rows still pending are claimed, so no command is sent twice.
   */
  async claimPending(
    sql: Sql,
    tenantId: string,
    deviceId: string,
    upTo?: string,
  ): Promise<CommandRow[]> {
    await sql.query("SELECT pg_advisory_xact_lock(hashtextextended('iot_command:' || $1, 0))", [
      deviceId,
    ]);
    const { rows } = await sql.query<CommandRow>(
      `UPDATE iot_command SET status = 'sent', sent_at = now(), updated_at = now()
        WHERE id IN (SELECT id FROM iot_command
                      WHERE tenant_id = $1 AND device_id = $2 AND status = 'pending'
                        AND expires_at > now() AND ($3::bigint IS NULL OR id <= $3)
                      ORDER BY id FOR UPDATE)
          AND status = 'pending'
        RETURNING ${COLUMNS}`,
      [tenantId, deviceId, upTo ?? null],
    );
    return rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  },

  /** Puts a command whose publication failed back in the queue. */
  async unclaim(sql: Sql, id: string): Promise<void> {
    await sql.query(
      `UPDATE iot_command SET status = 'pending', sent_at = NULL, updated_at = now()
        WHERE id = $1 AND status = 'sent'`,
      [id],
    );
  },

  /** Records a device's answer to a command it was sent; answers undefined for a stray ack. */
  async acknowledge(
    sql: Sql,
    ack: {
      tenantId: string;
      deviceId: string;
      id: string;
      ok: boolean;
      message: string | null;
      at: Date;
    },
  ): Promise<CommandRow | undefined> {
    const { rows } = await sql.query<CommandRow>(
      `UPDATE iot_command
          SET status = CASE WHEN $4 THEN 'succeeded' ELSE 'failed' END,
              acked_at = $6, updated_at = now(), result = $5,
              latency_ms = greatest(0, round(extract(epoch FROM ($6::timestamptz - sent_at)) * 1000))::int
        WHERE tenant_id = $1 AND device_id = $2 AND id = $3 AND status = 'sent'
        RETURNING ${COLUMNS}`,
      [ack.tenantId, ack.deviceId, ack.id, ack.ok, ack.message, ack.at],
    );
    return rows[0];
  },

  async cancel(sql: Sql, id: string, reason: string): Promise<CommandRow | undefined> {
    const { rows } = await sql.query<CommandRow>(
      `UPDATE iot_command SET status = 'cancelled', result = $2, updated_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, reason],
    );
    return rows[0];
  },

  /** Sent commands past their timeout and pending ones past their expiry, of every tenant. */
  async sweep(sql: Sql): Promise<CommandRow[]> {
    const timedOut = await sql.query<CommandRow>(
      `UPDATE iot_command SET status = 'timeout', updated_at = now()
        WHERE status = 'sent' AND sent_at + make_interval(secs => timeout_seconds) <= now()
        RETURNING ${COLUMNS}`,
    );
    const expired = await sql.query<CommandRow>(
      `UPDATE iot_command SET status = 'expired', updated_at = now()
        WHERE status = 'pending' AND expires_at <= now()
        RETURNING ${COLUMNS}`,
    );
    return [...timedOut.rows, ...expired.rows];
  },

  /** Tenant codes and device numbers for live pushes of rows of many tenants. */
  async addresses(
    sql: Sql,
    rows: CommandRow[],
  ): Promise<Map<string, { tenantCode: string; deviceNo: string | null }>> {
    const { rows: found } = await sql.query<{
      id: string;
      tenant_code: string;
      device_no: string | null;
    }>(
      `SELECT c.id::text, t.tenant_code, d.device_no
         FROM iot_command c JOIN tenant t ON t.id = c.tenant_id
         LEFT JOIN iot_device d ON d.id = c.device_id
        WHERE c.id = ANY ($1::bigint[])`,
      [rows.map((row) => row.id)],
    );
    return new Map(
      found.map((row) => [row.id, { tenantCode: row.tenant_code, deviceNo: row.device_no }]),
    );
  },

  /** The sweep reads commands by status; without this index it reads the whole history. */
  async ensureIndexes(sql: Sql): Promise<void> {
    await sql.query(
      `CREATE INDEX IF NOT EXISTS iot_command_open_idx ON iot_command (status, id)
        WHERE status IN ('pending', 'sent')`,
    );
  },
};
