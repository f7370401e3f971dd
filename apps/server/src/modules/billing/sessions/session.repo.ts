import { lockKey, type Sql } from '../../../db/database';

/** Where a session is (migration 022): authorized and running, or ended one way or another. */
export type SessionState = 'open' | 'settled' | 'voided' | 'consumed';

export interface SessionRow {
  id: string;
  device_id: string | null;
  device_no: string;
  card_id: string | null;
  card_no: string;
  household_id: string | null;
  state: SessionState;
  record_no: number | null;
  swiped_at: Date | null;
  credit_fen: number | null;
  controller_amount_fen: number | null;
  hold_txn_id: string | null;
  authorize_command_id: string | null;
}

const SESSION_COLUMNS = `id::text, device_id::text, device_no, card_id::text, card_no,
  household_id::text, state, record_no, swiped_at, credit_fen::float8 AS credit_fen,
  controller_amount_fen::float8 AS controller_amount_fen, hold_txn_id::text,
  authorize_command_id::text`;

/** What the end of a session writes (priced, metered, the ledger's transaction). */
export interface SessionEnd {
  state: Exclude<SessionState, 'open'>;
  recordNo: number | null;
  startedAt: Date | null;
  endedAt: Date | null;
  kwhStart: number | null;
  kwhEnd: number | null;
  m3Start: number | null;
  m3End: number | null;
  volumeM3: number | null;
  energyKwh: number | null;
  durationSeconds: number | null;
  billingMode: string | null;
  unitPriceFen: number | null;
  m3PerKwh: number | null;
  amountFen: number | null;
  controllerAmountFen: number | null;
  tierParts: unknown;
  endReason: string | null;
  settleTxnId: string | null;
  late: boolean;
  lostCard: boolean;
  problem: string | null;
}

export type UploadStatus = 'posted' | 'duplicate' | 'conflict' | 'refused';

/** The SQL of card sessions and controller records (migration 022), in the caller's transaction. */
export const sessionRepo = {
  /** Serialises everything about one record key of one controller (two uploads at once). */
  async lockRecord(sql: Sql, deviceId: string, recordNo: number): Promise<void> {
    await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [
      lockKey(`billing_record:${deviceId}:${recordNo}`),
    ]);
  },

  /** Serialises the swipes of one controller: one open session per well. */
  async lockWell(sql: Sql, deviceId: string): Promise<void> {
    await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [
      lockKey(`billing_well:${deviceId}`),
    ]);
  },

  async openOfWell(sql: Sql, deviceId: string): Promise<SessionRow | undefined> {
    const { rows } = await sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM billing_session WHERE device_id = $1 AND state = 'open'`,
      [deviceId],
    );
    return rows[0];
  },

  /** Whether this swipe (card, and the controller's time of it) made a session already. */
  async swipeSeen(sql: Sql, deviceId: string, cardNo: string, at: Date): Promise<boolean> {
    const { rows } = await sql.query(
      `SELECT 1 FROM billing_session WHERE device_id = $1 AND card_no = $2 AND swiped_at = $3`,
      [deviceId, cardNo, at],
    );
    return rows.length > 0;
  },

  async byId(sql: Sql, id: string): Promise<SessionRow | undefined> {
    const { rows } = await sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM billing_session WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /** The session, locked until the transaction ends (its end and its void wait for each other). */
  async lockSession(sql: Sql, id: string): Promise<SessionRow | undefined> {
    const { rows } = await sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM billing_session WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0];
  },

  async setSettleTxn(sql: Sql, id: string, txnId: string): Promise<void> {
    await sql.query(`UPDATE billing_session SET settle_txn_id = $2 WHERE id = $1`, [id, txnId]);
  },

  async byRecord(sql: Sql, deviceId: string, recordNo: number): Promise<SessionRow | undefined> {
    const { rows } = await sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM billing_session WHERE device_id = $1 AND record_no = $2`,
      [deviceId, recordNo],
    );
    return rows[0];
  },

  async byAuthorizeCommand(sql: Sql, commandId: string): Promise<SessionRow | undefined> {
    const { rows } = await sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM billing_session WHERE authorize_command_id = $1`,
      [commandId],
    );
    return rows[0];
  },

  /** A swipe the server accepts: the session, open, before its hold is posted. */
  async insertOpen(
    sql: Sql,
    session: {
      tenantId: string;
      deviceId: string;
      deviceNo: string;
      cardId: string;
      cardNo: string;
      householdId: string;
      swipedAt: Date;
      creditFen: number;
      billingMode: string;
      unitPriceFen: number;
      m3PerKwh: number | null;
    },
  ): Promise<string> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_session (tenant_id, device_id, device_no, card_id, card_no, household_id,
         state, swiped_at, credit_fen, billing_mode, unit_price_fen, m3_per_kwh)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $11) RETURNING id::text`,
      [
        session.tenantId,
        session.deviceId,
        session.deviceNo,
        session.cardId,
        session.cardNo,
        session.householdId,
        session.swipedAt,
        session.creditFen,
        session.billingMode,
        session.unitPriceFen,
        session.m3PerKwh,
      ],
    );
    return rows[0]!.id;
  },

  async setHold(sql: Sql, id: string, holdTxnId: string): Promise<void> {
    await sql.query(`UPDATE billing_session SET hold_txn_id = $2 WHERE id = $1`, [id, holdTxnId]);
  },

  async setAuthorizeCommand(sql: Sql, id: string, commandId: string): Promise<void> {
    await sql.query(
      `UPDATE billing_session SET authorize_command_id = $2, updated_at = now() WHERE id = $1`,
      [id, commandId],
    );
  },

  /** Ends an open session (or fills in a voided one's late record); false when it was not. */
  async end(sql: Sql, id: string, from: SessionState, end: SessionEnd): Promise<boolean> {
    const { rows } = await sql.query(
      `UPDATE billing_session SET state = $3, record_no = coalesce($4, record_no),
         started_at = coalesce($5, started_at), ended_at = coalesce($6, ended_at),
         kwh_start = coalesce($7, kwh_start), kwh_end = coalesce($8, kwh_end),
         m3_start = coalesce($9, m3_start), m3_end = coalesce($10, m3_end),
         volume_m3 = coalesce($11, volume_m3), energy_kwh = coalesce($12, energy_kwh),
         duration_seconds = coalesce($13, duration_seconds),
         billing_mode = coalesce($14, billing_mode), unit_price_fen = coalesce($15, unit_price_fen),
         m3_per_kwh = coalesce($16, m3_per_kwh), amount_fen = coalesce($17, amount_fen),
         controller_amount_fen = coalesce($18, controller_amount_fen),
         tier_parts = coalesce($19::jsonb, tier_parts), end_reason = coalesce($20, end_reason),
         settle_txn_id = coalesce($21, settle_txn_id), late = late OR $22, lost_card = lost_card OR $23,
         problem = coalesce($24, problem), updated_at = now()
       WHERE id = $1 AND state = $2 RETURNING id`,
      [
        id,
        from,
        end.state,
        end.recordNo,
        end.startedAt,
        end.endedAt,
        end.kwhStart,
        end.kwhEnd,
        end.m3Start,
        end.m3End,
        end.volumeM3,
        end.energyKwh,
        end.durationSeconds,
        end.billingMode,
        end.unitPriceFen,
        end.m3PerKwh,
        end.amountFen,
        end.controllerAmountFen,
        end.tierParts === null || end.tierParts === undefined
          ? null
          : JSON.stringify(end.tierParts),
        end.endReason,
        end.settleTxnId,
        end.late,
        end.lostCard,
        end.problem,
      ],
    );
    return rows.length > 0;
  },

  /** A session the controller ran offline, known only from its record. */
  async insertRecorded(
    sql: Sql,
    session: {
      tenantId: string;
      deviceId: string;
      deviceNo: string;
      cardId: string | null;
      cardNo: string;
      householdId: string | null;
    },
    end: SessionEnd,
  ): Promise<string> {
    // Made in its end state (never open: the well may run another card's session meanwhile).
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_session (tenant_id, device_id, device_no, card_id, card_no, household_id,
         state) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text`,
      [
        session.tenantId,
        session.deviceId,
        session.deviceNo,
        session.cardId,
        session.cardNo,
        session.householdId,
        end.state,
      ],
    );
    const id = rows[0]!.id;
    await this.end(sql, id, end.state, end);
    return id;
  },

  /** Every upload of a record, as it came, and what became of it. */
  async insertUpload(
    sql: Sql,
    upload: {
      tenantId: string;
      deviceId: string;
      deviceNo: string;
      recordNo: number | null;
      sessionId: string | null;
      cardNo: string | null;
      amountFen: number | null;
      status: UploadStatus;
      message: string | null;
      payload: unknown;
      receivedAt: Date;
    },
  ): Promise<string> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_controller_record (tenant_id, device_id, device_no, record_no, session_id,
         card_no, amount_fen, status, message, payload, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text`,
      [
        upload.tenantId,
        upload.deviceId,
        upload.deviceNo,
        upload.recordNo,
        upload.sessionId,
        upload.cardNo,
        upload.amountFen,
        upload.status,
        upload.message,
        JSON.stringify(upload.payload ?? {}),
        upload.receivedAt,
      ],
    );
    return rows[0]!.id;
  },

  /** The card numbers no controller may run (lost, replaced or cancelled cards of the tenant). */
  async blockedCards(sql: Sql): Promise<string[]> {
    const { rows } = await sql.query<{ card_no: string }>(
      `SELECT card_no FROM billing_card WHERE card_state IN ('lost', 'replaced', 'cancelled')
        ORDER BY card_no`,
    );
    return rows.map((row) => row.card_no);
  },

  async sentBlacklist(
    sql: Sql,
    deviceId: string,
  ): Promise<{ hash: string; commandId: string | null } | undefined> {
    const { rows } = await sql.query<{ hash: string; commandId: string | null }>(
      `SELECT blacklist_hash AS hash, command_id::text AS "commandId"
         FROM billing_controller_blacklist WHERE device_id = $1`,
      [deviceId],
    );
    return rows[0];
  },

  async markBlacklistSent(
    sql: Sql,
    tenantId: string,
    deviceId: string,
    hash: string,
    commandId: string,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO billing_controller_blacklist (tenant_id, device_id, blacklist_hash, command_id)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, device_id) DO UPDATE SET blacklist_hash = EXCLUDED.blacklist_hash,
         command_id = EXCLUDED.command_id, sent_at = now()`,
      [tenantId, deviceId, hash, commandId],
    );
  },

  /** The card controllers of the tenant in context (ids and numbers). */
  async controllers(sql: Sql): Promise<Array<{ id: string; device_no: string }>> {
    const { rows } = await sql.query<{ id: string; device_no: string }>(
      `SELECT d.id::text, d.device_no FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = 'card_controller' ORDER BY d.id`,
    );
    return rows;
  },

  async isController(sql: Sql, deviceId: string): Promise<boolean> {
    const { rows } = await sql.query(
      `SELECT 1 FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1 AND p.device_kind = 'card_controller'`,
      [deviceId],
    );
    return rows.length > 0;
  },

  /** A command's state (the authorizeSession of a session), from the command engine's table. */
  async commandStatus(sql: Sql, commandId: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ status: string }>(
      `SELECT status FROM iot_command WHERE id = $1`,
      [commandId],
    );
    return rows[0]?.status;
  },
};
