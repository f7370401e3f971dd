import { createHash } from 'node:crypto';
import type { DeskResult } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';

export type CardOperationKind = 'bind' | 'reportLost' | 'replace' | 'reclaim';

/** A digest of what a request asks (its id and the reader it went through left out). */
export function requestHash(kind: string, request: Record<string, unknown>): string {
  const { idempotencyKey: _id, reader: _reader, ...rest } = request;
  const sorted = Object.keys(rest)
    .sort()
    .map((key) => [key, rest[key]]);
  return createHash('sha256')
    .update(JSON.stringify([kind, sorted]))
    .digest('hex');
}

/**
 * Lifecycle calls by their client-made request id (migration 021): `claim` reserves the id before
 * anything is done (a parallel call with the same id waits on the unique index, then finds the
 * first one's result), `finish` stores the result the call answers, then and on every retry.
 */
export const cardOperationRepo = {
  /** The stored result of an earlier call with this id (same request), else undefined. */
  async claim(
    sql: Sql,
    input: {
      tenantId: string;
      idempotencyKey: string;
      kind: CardOperationKind;
      hash: string;
      userId: string;
    },
  ): Promise<DeskResult | undefined> {
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO billing_card_operation (tenant_id, request_id, kind, request_hash, card_id,
              result, created_by)
       VALUES ($1, $2, $3, $4, 0, '{}'::jsonb, $5)
       ON CONFLICT (tenant_id, request_id) DO NOTHING RETURNING id`,
      [input.tenantId, input.idempotencyKey, input.kind, input.hash, input.userId],
    );
    if (inserted.rows.length > 0) return undefined;
    const { rows } = await sql.query<{ kind: string; request_hash: string; result: DeskResult }>(
      `SELECT kind, request_hash, result FROM billing_card_operation
        WHERE tenant_id = $1 AND request_id = $2`,
      [input.tenantId, input.idempotencyKey],
    );
    const earlier = rows[0]!;
    if (earlier.kind !== input.kind || earlier.request_hash !== input.hash)
      throw new AppError(409, 'billing.idempotencyKeyReused', {
        fields: [{ field: 'idempotencyKey', key: 'billing.idempotencyKeyReused' }],
      });
    return { ...earlier.result, replayed: true };
  },

  async finish(
    sql: Sql,
    input: { tenantId: string; idempotencyKey: string; cardId: string; result: DeskResult },
  ): Promise<void> {
    await sql.query(
      `UPDATE billing_card_operation SET card_id = $3, result = $4::jsonb
        WHERE tenant_id = $1 AND request_id = $2`,
      [input.tenantId, input.idempotencyKey, input.cardId, JSON.stringify(input.result)],
    );
  },
};
