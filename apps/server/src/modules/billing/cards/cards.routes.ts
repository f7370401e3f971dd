import {
  bindCardSchema,
  CARD_CALLS,
  cardWriteQuerySchema,
  cardWriteSchema,
  confirmCardWriteSchema,
  deskCardQuerySchema,
  deskCardSchema,
  deskReaderRowSchema,
  deskResultSchema,
  label,
  rechargeCardSchema,
  reclaimCardSchema,
  refundCardSchema,
  replaceCardSchema,
  reportLostCardSchema,
  reverseCardWriteSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { CardLifecycleService } from './card-lifecycle.service';
import type { CardMoneyService } from './card-money.service';

const fieldLabels = {
  idempotencyKey: { label: label('Request key', '请求键', '請求鍵') },
  cardNo: { label: label('Card number', '卡号', '卡號') },
  lostCardNo: { label: label('Lost card', '挂失卡', '掛失卡') },
  newCardNo: { label: label('New card', '新卡', '新卡') },
  householdId: { label: label('Household', '用卡户', '用卡戶') },
  amountFen: { label: label('Amount', '金额', '金額') },
  method: { label: label('Payment method', '支付方式', '支付方式') },
  externalRef: { label: label('Payment reference', '支付流水号', '支付流水號') },
  cardSequence: { label: label('Card sequence', '卡写入序号', '卡寫入序號') },
  writeId: { label: label('Card write', '写卡记录', '寫卡記錄') },
  outcome: { label: label('Outcome', '结果', '結果') },
  reader: { label: label('Card reader', '读卡器', '讀卡器') },
  remark: { label: label('Remark', '备注', '備註') },
  txnId: { label: label('Transaction', '交易', '交易') },
};

/** The service desk's calls (contract billing/card-calls.ts). */
export async function cardsRoutes(
  fastify: FastifyInstance,
  deps: { lifecycle: CardLifecycleService; money: CardMoneyService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const config = { permission: 'granted' as const, fieldLabels };
  const result = { 200: envelopeOf(deskResultSchema) };

  app.get(CARD_CALLS.deskCard, {
    config,
    schema: {
      tags,
      summary:
        "A card at the service desk: its state, household, balance, this year's quota and the writes not yet on it",
      querystring: deskCardQuerySchema,
      response: { 200: envelopeOf(deskCardSchema) },
    },
    handler: async (request) => {
      const { cardNo, readerSerial, readerBackend } = request.query;
      const reader =
        readerSerial && readerBackend
          ? { serial: readerSerial, backend: readerBackend }
          : undefined;
      return ok(await deps.lifecycle.deskCard(authOf(request), cardNo, reader));
    },
  });

  app.post(CARD_CALLS.bind, {
    config,
    schema: {
      tags,
      summary: 'Binds a registered user card to a household',
      body: bindCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.lifecycle.bind(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.reportLost, {
    config,
    schema: {
      tags,
      summary: 'Reports a card lost: every controller refuses it from its next contact',
      body: reportLostCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.lifecycle.reportLost(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.replace, {
    config,
    schema: {
      tags,
      summary:
        "Replaces a lost card by a registered one, bound to its household with the ledger's balance (answers the image to write)",
      body: replaceCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.lifecycle.replace(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.reclaim, {
    config,
    schema: {
      tags,
      summary: "Cancels and reclaims a card, refunding the household's available balance in cash",
      body: reclaimCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.lifecycle.reclaim(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.recharge, {
    config,
    schema: {
      tags,
      summary: 'Recharges a card at the desk (cash or online), answering the card image to write',
      body: rechargeCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.money.recharge(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.refund, {
    config,
    schema: {
      tags,
      summary:
        'Refunds part of the balance not held or consumed in cash, answering the card image to write',
      body: refundCardSchema,
      response: result,
    },
    handler: async (request) => ok(await deps.money.refund(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.confirmWrite, {
    config,
    schema: {
      tags,
      summary: 'Records how writing a card image went: written, failed (retried) or abandoned',
      body: confirmCardWriteSchema,
      response: { 200: envelopeOf(cardWriteSchema) },
    },
    handler: async (request) => ok(await deps.money.confirm(authOf(request), request.body)),
  });

  app.post(CARD_CALLS.reverseWrite, {
    config,
    schema: {
      tags,
      summary: 'Reverses the ledger transaction of a card write the cashier gave up on',
      body: reverseCardWriteSchema,
      response: { 200: envelopeOf(cardWriteSchema) },
    },
    handler: async (request) => ok(await deps.money.reverse(authOf(request), request.body)),
  });

  app.get(CARD_CALLS.writes, {
    config,
    schema: {
      tags,
      summary: 'Card writes not yet on their cards (or of one state, or one card), newest first',
      querystring: cardWriteQuerySchema,
      response: { 200: envelopeOf(z.array(cardWriteSchema)) },
    },
    handler: async (request) => ok(await deps.money.writes(authOf(request), request.query)),
  });

  app.get(CARD_CALLS.readers, {
    config,
    schema: {
      tags,
      summary: 'The card readers the service desks used: by whom, with which backend, last seen',
      response: { 200: envelopeOf(z.array(deskReaderRowSchema)) },
    },
    handler: async (request) => ok(await deps.money.readers(authOf(request))),
  });
}
