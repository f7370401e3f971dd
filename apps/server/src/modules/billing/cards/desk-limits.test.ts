import { randomUUID } from 'node:crypto';
import {
  CARD_CALLS,
  CARD_PURSE_MAX_FEN,
  LEDGER_CALLS,
  type CardWrite,
  type DeskResult,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from '../ledger/ledger-test-kit';

/*
 * The desk at the edge of what a card holds (an attacker's review of issue 20): a household's
 * ledger may hold more than a card's 32-bit purse (online top-ups of up to 10 million yuan each),
 * and the desk must answer a translated refusal, never a 500, nor an image no reader can write.
 */
describe.each(BACKENDS)('service desk limits on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  let households: string[];
  let nextCard = 0x6d6d0000;

  const registerCard = async () => {
    const cardNo = (nextCard++).toString(16).toUpperCase();
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, issued_at)
         VALUES ($1, $2, 'user', 'registered', now())`,
        [tenantId, cardNo],
      ),
    );
    return cardNo;
  };
  const post = <T = DeskResult>(path: string, body: Record<string, unknown>, lang = 'en') =>
    call<{ data: T; errors?: Array<{ field: string; message: string }> }>(server, 'POST', path, {
      token,
      lang,
      body,
    });
  /** A household with a bound card and this much on its ledger (online top-ups). */
  const funded = async (householdId: string, fen: number) => {
    for (let left = fen; left > 0; left -= 1_000_000_000) {
      const topUp = await post(LEDGER_CALLS.recharge, {
        householdId,
        amountFen: Math.min(left, 1_000_000_000),
        method: 'online',
        externalRef: `top-up-${randomUUID()}`,
        idempotencyKey: randomUUID(),
      });
      expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    }
    const cardNo = await registerCard();
    const bound = await post(CARD_CALLS.bind, {
      idempotencyKey: randomUUID(),
      cardNo,
      householdId,
    });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    return cardNo;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
    );
    tenantId = rows[0]!.id;
    households = await server.db.system((sql) => insertHouseholds(sql, tenantId, 4, 'Limits'));
  }, 120_000);

  afterAll(async () => {
    if (!server) return;
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  test('a desk recharge past what a card holds is a translated 409 naming the amount; nothing is posted', async () => {
    const householdId = households[0]!;
    const cardNo = await funded(householdId, CARD_PURSE_MAX_FEN - 99);
    const refused = await post(
      CARD_CALLS.recharge,
      { idempotencyKey: randomUUID(), cardNo, amountFen: 100, method: 'cash', cardSequence: 0 },
      'zh',
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.errors).toEqual([
      {
        field: 'amountFen',
        message: `金额：卡 ${cardNo} 的余额将超过单卡最多可存的 21474836.47 元`,
      },
    ]);
    // Up to the purse's last fen is fine.
    const full = await post(CARD_CALLS.recharge, {
      idempotencyKey: randomUUID(),
      cardNo,
      amountFen: 99,
      method: 'cash',
      cardSequence: 0,
    });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.data.write!.image.balanceFen).toBe(CARD_PURSE_MAX_FEN);
  });

  test('a card whose household holds more than 2^31 fen reads, lists and is replaced without a 500', async () => {
    const householdId = households[1]!;
    const lost = await funded(householdId, 3_000_000_000);
    const reported = await post(CARD_CALLS.reportLost, {
      idempotencyKey: randomUUID(),
      cardNo: lost,
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    const fresh = await registerCard();
    const replaced = await post(CARD_CALLS.replace, {
      idempotencyKey: randomUUID(),
      lostCardNo: lost,
      newCardNo: fresh,
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data.write!.image.balanceFen).toBe(3_000_000_000);
    const writes = await call<{ data: CardWrite[] }>(server, 'GET', CARD_CALLS.writes, {
      token,
      query: { cardNo: fresh },
    });
    expect(writes.status, JSON.stringify(writes.body)).toBe(200);
    expect(writes.body.data.map((write) => write.image.balanceFen)).toEqual([3_000_000_000]);
    const desk = await call(server, 'GET', CARD_CALLS.deskCard, {
      token,
      query: { cardNo: fresh },
    });
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
  });
});
