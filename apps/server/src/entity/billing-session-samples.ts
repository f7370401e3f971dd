import type { Sql } from '../db/database';
import type { EntitySample, Values } from './entity-samples';

/** A device's number, which the session tables keep beside its id. */
async function deviceNo(sql: Sql, deviceId: unknown): Promise<string> {
  const { rows } = await sql.query<{ device_no: string }>(
    'SELECT device_no FROM iot_device WHERE id = $1',
    [String(deviceId)],
  );
  return rows[0]!.device_no;
}

const fen = (yuan: unknown) => Math.round(Number(yuan) * 100);

/**
 * The card controllers' read-only entities' samples (entity-samples.ts spreads them in): rows
 * as modules/billing/sessions writes them, found by their own card number.
 */
export const BILLING_SESSION_SAMPLES: Record<string, EntitySample> = {
  Consumption: {
    search: 'cardNo',
    create: async (u, ctx) => ({
      cardNo: `C${u.digits}`.slice(0, 32),
      deviceId: await ctx.deviceOfKind('card_controller'),
      householdId: await ctx.fresh('billing_household'),
      state: 'settled',
      startedAt: '2026-04-02T01:00:00.000Z',
      endedAt: '2026-04-02T03:30:00.000Z',
      volumeM3: 104.167,
      amountYuan: '12.50',
      endReason: 'cardRemoved',
      late: false,
      lostCard: false,
    }),
    write: async (sql: Sql, tenantId: string, values: Values) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO billing_session (tenant_id, device_id, device_no, card_no, household_id, state,
           started_at, ended_at, volume_m3, amount_fen, end_reason, late, lost_card)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id::text`,
        [
          tenantId,
          values.deviceId,
          await deviceNo(sql, values.deviceId),
          values.cardNo,
          values.householdId,
          values.state,
          values.startedAt,
          values.endedAt,
          values.volumeM3,
          fen(values.amountYuan),
          values.endReason,
          values.late,
          values.lostCard,
        ],
      );
      return rows[0]!.id;
    },
  },
  ControllerRecord: {
    search: 'cardNo',
    create: async (u, ctx) => ({
      cardNo: `R${u.digits}`.slice(0, 32),
      deviceId: await ctx.deviceOfKind('card_controller'),
      recordNo: 7,
      amountYuan: '3.20',
      outcome: 'duplicate',
      message: `Sent again after an outage ${u.text}`.slice(0, 200),
    }),
    write: async (sql: Sql, tenantId: string, values: Values) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO billing_controller_record (tenant_id, device_id, device_no, record_no, card_no,
           amount_fen, status, message, payload)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}') RETURNING id::text`,
        [
          tenantId,
          values.deviceId,
          await deviceNo(sql, values.deviceId),
          values.recordNo,
          values.cardNo,
          fen(values.amountYuan),
          values.outcome,
          values.message,
        ],
      );
      return rows[0]!.id;
    },
  },
};
