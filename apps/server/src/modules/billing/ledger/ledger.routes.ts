import {
  balanceQuerySchema,
  householdBalanceSchema,
  label,
  LEDGER_CALLS,
  ledgerPostedSchema,
  rechargeSchema,
  refundSchema,
  reverseSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { LedgerService } from './ledger.service';

const fieldLabels = {
  householdId: { label: label('Card user', '用卡户', '用卡戶') },
  amountFen: { label: label('Amount', '金额', '金額') },
  method: { label: label('Payment method', '支付方式', '支付方式') },
  externalRef: { label: label('Payment reference', '支付流水号', '支付流水號') },
  idempotencyKey: { label: label('Request key', '请求键', '請求鍵') },
  cardId: { label: label('Card', '卡片', '卡片') },
  memo: { label: label('Memo', '备注', '備註') },
  txnId: { label: label('Transaction', '交易', '交易') },
  reason: { label: label('Reason', '原因', '原因') },
};

/**
 * A household whose card is in use is refunded at the desk (refundCard), which writes the lower
 * balance onto the card: refunded here, the card would keep the money, spendable at controllers
 * offline. A retry of a refund already posted is answered as before.
 */
async function refundAtDesk(
  sql: Sql,
  tenantId: string,
  body: { householdId: string; idempotencyKey: string },
): Promise<void> {
  const { rows } = await sql.query<{ cardNo: string }>(
    `SELECT c.card_no AS "cardNo" FROM billing_card c
      WHERE c.tenant_id = $1 AND c.household_id = $2 AND c.card_type = 'user'
        AND c.card_state = 'bound'
        AND NOT EXISTS (SELECT 1 FROM billing_txn t
                         WHERE t.tenant_id = $1 AND t.idempotency_key = $3)
      ORDER BY c.id LIMIT 1`,
    [tenantId, body.householdId, body.idempotencyKey],
  );
  const card = rows[0];
  if (card) {
    const params = { cardNo: card.cardNo };
    throw new AppError(409, 'billing.refundAtDesk', {
      params,
      fields: [{ field: 'householdId', key: 'billing.refundAtDesk', params }],
    });
  }
}

/**
 * The cashier's ledger calls: recharge, refund, reversal, a household's balance. The signed-in
 * user is the cashier (their cash drawer takes or pays the cash); each call is one database
 * transaction in the caller's tenant.
 */
export async function ledgerRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; ledger: LedgerService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const config = { permission: 'granted' as const, fieldLabels };
  const posted = { 200: envelopeOf(ledgerPostedSchema) };

  app.post(LEDGER_CALLS.recharge, {
    config,
    schema: {
      tags,
      summary: "Recharge a household's balance (cash at the desk, or an online payment)",
      body: rechargeSchema,
      response: posted,
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { householdId, amountFen, method, externalRef, idempotencyKey, cardId, memo } =
        request.body;
      return ok(
        await deps.db.tenant(auth, (sql) =>
          deps.ledger.recharge(sql, {
            tenantId: auth.tenantId,
            idempotencyKey,
            householdId,
            amountFen,
            method,
            externalRef,
            cardId,
            memo,
            cashierId: auth.userId,
            createdBy: auth.userId,
          }),
        ),
      );
    },
  });

  app.post(LEDGER_CALLS.refund, {
    config,
    schema: {
      tags,
      summary: "Refund cash from a household's balance not held by a running session",
      body: refundSchema,
      response: posted,
    },
    handler: async (request) => {
      const auth = authOf(request);
      return ok(
        await deps.db.tenant(auth, async (sql) => {
          await refundAtDesk(sql, auth.tenantId, request.body);
          return deps.ledger.refund(sql, {
            ...request.body,
            tenantId: auth.tenantId,
            cashierId: auth.userId,
            createdBy: auth.userId,
          });
        }),
      );
    },
  });

  app.post(LEDGER_CALLS.reverse, {
    config,
    schema: {
      tags,
      summary: 'Reverse an earlier recharge, refund, consumption or settlement (once)',
      body: reverseSchema,
      response: posted,
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { txnId, idempotencyKey, reason } = request.body;
      return ok(
        await deps.db.tenant(auth, (sql) =>
          deps.ledger.reverse(sql, {
            tenantId: auth.tenantId,
            txnId,
            idempotencyKey,
            memo: reason,
            cashierId: auth.userId,
            createdBy: auth.userId,
          }),
        ),
      );
    },
  });

  app.get(LEDGER_CALLS.balance, {
    config,
    schema: {
      tags,
      summary: "A household's available balance and what running sessions hold of it",
      querystring: balanceQuerySchema,
      response: { 200: envelopeOf(householdBalanceSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { householdId } = request.query;
      const balance = await deps.db.tenant(auth, async (sql) => {
        await deps.ledger.requireHousehold(sql, auth.tenantId, householdId);
        return deps.ledger.householdBalance(sql, auth.tenantId, householdId);
      });
      return ok({ householdId, ...balance });
    },
  });
}
