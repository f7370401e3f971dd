import { randomUUID } from 'node:crypto';
import { CARD_CALLS, type CardWrite, type DeskCard, type DeskResult } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from '../ledger/ledger-test-kit';

/*
 * The service desk against the real server on PGlite and PostgreSQL (issue 20 items 2 and 6):
 * every lifecycle transition and refusal (translated, naming the field), idempotent retries by
 * request id, reclaim refunding exactly what is available, replacement carrying the balance, and
 * write after commit: the image each change answers, confirmed written, failed and retried with
 * the card's sequence, abandoned and reversed through the ledger, superseded by a newer image.
 */
describe.each(BACKENDS)('service desk cards on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  let households: string[];
  let nextCard = 0x5e5e0000;
  const reader = { serial: 'SIM-DESK-1', backend: 'simulated' as const };

  /** A registered user card (the registration screen's row), with its number. */
  const registerCard = async (cardType = 'user', householdId: string | null = null) => {
    const cardNo = (nextCard++).toString(16).toUpperCase();
    await server.db.system((sql) =>
      sql.query(
        `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, household_id, issued_at)
         VALUES ($1, $2, $3, 'registered', $4, now())`,
        [tenantId, cardNo, cardType, householdId],
      ),
    );
    return cardNo;
  };

  const post = <T = DeskResult>(path: string, body: Record<string, unknown>, lang = 'en') =>
    call<{ code: number; data: T; message: string; errors?: Array<{ field: string }> }>(
      server,
      'POST',
      path,
      { token, lang, body },
    );

  const desk = async (cardNo: string) => {
    const answer = await call<{ data: DeskCard }>(server, 'GET', CARD_CALLS.deskCard, {
      token,
      query: { cardNo, readerSerial: reader.serial, readerBackend: reader.backend },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };

  const bind = async (cardNo: string, householdId: string) => {
    const bound = await post(CARD_CALLS.bind, {
      idempotencyKey: randomUUID(),
      cardNo,
      householdId,
      reader,
    });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    return bound.body.data;
  };

  const recharge = async (cardNo: string, amountFen: number, cardSequence = 0) => {
    const done = await post(CARD_CALLS.recharge, {
      idempotencyKey: randomUUID(),
      cardNo,
      amountFen,
      method: 'cash',
      cardSequence,
      reader,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return done.body.data;
  };

  const confirm = async (writeId: string, outcome: string, extra: object = {}) => {
    const done = await post<CardWrite>(CARD_CALLS.confirmWrite, { writeId, outcome, ...extra });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return done.body.data;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
    );
    tenantId = rows[0]!.id;
    households = await server.db.system((sql) => insertHouseholds(sql, tenantId, 12, 'Desk'));
  }, 120_000);

  afterAll(async () => {
    if (!server) return;
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  test('bind: a registered user card joins a household; retries answer the same result', async () => {
    const cardNo = await registerCard();
    const idempotencyKey = randomUUID();
    const body = { idempotencyKey, cardNo, householdId: households[0], reader };
    const first = await post(CARD_CALLS.bind, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ cardNo, cardState: 'bound', replayed: false });
    const again = await post(CARD_CALLS.bind, body);
    expect(again.body.data).toMatchObject({ cardNo, cardState: 'bound', replayed: true });
    // The same request id with another request is refused, naming it.
    const other = await post(CARD_CALLS.bind, { ...body, householdId: households[1] });
    expect(other.status).toBe(409);
    expect(other.body.errors?.[0]?.field).toBe('idempotencyKey');

    const view = await desk(cardNo);
    expect(view.card.cardState).toBe('bound');
    expect(view.household?.id).toBe(households[0]);
    expect(view.balance).toEqual({ availableFen: 0, heldFen: 0 });
  });

  test('bind refusals: unknown card, another household, not a user card, bad input', async () => {
    const unknown = await post(
      CARD_CALLS.bind,
      { idempotencyKey: randomUUID(), cardNo: 'ABCDEF0123', householdId: households[0] },
      'zh',
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatchObject({ field: 'cardNo' });
    expect(unknown.body.message).toContain('卡号');

    const cardNo = await registerCard();
    await bind(cardNo, households[1]!);
    const taken = await post(CARD_CALLS.bind, {
      idempotencyKey: randomUUID(),
      cardNo,
      householdId: households[2],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(`Card number: card ${cardNo} belongs to another household`);

    const setting = await registerCard('setting');
    const notUser = await post(CARD_CALLS.bind, {
      idempotencyKey: randomUUID(),
      cardNo: setting,
      householdId: households[2],
    });
    expect(notUser.status).toBe(409);
    expect(notUser.body.errors?.[0]?.field).toBe('cardNo');

    const noHousehold = await post(CARD_CALLS.bind, {
      idempotencyKey: randomUUID(),
      cardNo: await registerCard(),
      householdId: '999999999',
    });
    expect(noHousehold.status).toBe(400);
    expect(noHousehold.body.errors?.[0]?.field).toBe('householdId');

    const bad = await post(CARD_CALLS.bind, {
      idempotencyKey: 'x',
      cardNo: 'not hex',
      householdId: 'a',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((error) => error.field).sort()).toEqual([
      'cardNo',
      'householdId',
      'idempotencyKey',
    ]);
  });

  test('recharge answers the image to write; confirmed written; a retry posts once', async () => {
    const cardNo = await registerCard();
    await bind(cardNo, households[3]!);
    const idempotencyKey = randomUUID();
    const body = {
      idempotencyKey,
      cardNo,
      amountFen: 5000,
      method: 'cash',
      cardSequence: 4,
      reader,
    };
    const first = await post(CARD_CALLS.recharge, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const write = first.body.data.write!;
    expect(write.image).toEqual({ cardNo, balanceFen: 5000, sequence: 5 });
    expect(write.state).toBe('pending');
    const again = await post(CARD_CALLS.recharge, body);
    expect(again.body.data).toMatchObject({ replayed: true, txnId: first.body.data.txnId });
    expect(again.body.data.write!.id).toBe(write.id);
    expect((await desk(cardNo)).balance?.availableFen).toBe(5000);
    expect((await desk(cardNo)).pendingWrites.map((open) => open.id)).toEqual([write.id]);

    expect((await confirm(write.id, 'written')).state).toBe('written');
    expect((await confirm(write.id, 'written')).state).toBe('written');
    expect((await desk(cardNo)).pendingWrites).toEqual([]);

    // Online needs its payment reference.
    const online = await post(CARD_CALLS.recharge, {
      ...body,
      idempotencyKey: randomUUID(),
      method: 'online',
    });
    expect(online.status).toBe(400);
    expect(online.body.errors?.[0]?.field).toBe('externalRef');
  });

  test('refund: only what is available; answers the lower image', async () => {
    const cardNo = await registerCard();
    await bind(cardNo, households[4]!);
    const recharged = await recharge(cardNo, 3000);
    await confirm(recharged.write!.id, 'written');
    const tooMuch = await post(CARD_CALLS.refund, {
      idempotencyKey: randomUUID(),
      cardNo,
      amountFen: 3001,
      cardSequence: 1,
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.errors?.[0]?.field).toBe('amountFen');
    const refunded = await post(CARD_CALLS.refund, {
      idempotencyKey: randomUUID(),
      cardNo,
      amountFen: 1200,
      cardSequence: 1,
      reader,
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.data.write!.image).toEqual({ cardNo, balanceFen: 1800, sequence: 2 });
    expect(refunded.body.data.balance).toEqual({ availableFen: 1800, heldFen: 0 });
  });

  test('a failed write is retried with the card sequence; an abandoned one is reversed once', async () => {
    const cardNo = await registerCard();
    await bind(cardNo, households[5]!);
    const first = await recharge(cardNo, 1000, 7);
    // The card moved: the attempt failed, the write stays pending for the next try.
    let write = await confirm(first.write!.id, 'failed', { problem: 'NO_CARD' });
    expect(write).toMatchObject({ state: 'pending', attempts: 1, problem: 'NO_CARD' });
    // A controller wrote the card meanwhile (sequence 9): the image is made again on it.
    write = await confirm(write.id, 'failed', { problem: 'STALE_SEQUENCE', cardSequence: 9 });
    expect(write.image).toEqual({ cardNo, balanceFen: 1000, sequence: 10 });

    // A second recharge supersedes the first image: it carries both.
    const second = await recharge(cardNo, 500, 9);
    expect(second.write!.image).toEqual({ cardNo, balanceFen: 1500, sequence: 10 });
    const open = (await desk(cardNo)).pendingWrites;
    expect(open.map((row) => row.id)).toEqual([second.write!.id]);
    const superseded = await post(CARD_CALLS.reverseWrite, {
      idempotencyKey: randomUUID(),
      writeId: write.id,
    });
    expect(superseded.status).toBe(409);

    // The cashier gives up on the second: failed, then reversed (once) through the ledger.
    expect((await confirm(second.write!.id, 'abandoned', { problem: 'NO_CARD' })).state).toBe(
      'failed',
    );
    const reverseBody = { idempotencyKey: randomUUID(), writeId: second.write!.id };
    const reversed = await post<CardWrite>(CARD_CALLS.reverseWrite, reverseBody);
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body.data.reversalTxnId).toBeTruthy();
    const twice = await post<CardWrite>(CARD_CALLS.reverseWrite, {
      ...reverseBody,
      idempotencyKey: randomUUID(),
    });
    expect(twice.body.data.reversalTxnId).toBe(reversed.body.data.reversalTxnId);
    expect((await desk(cardNo)).balance?.availableFen).toBe(1000);
    // A reversed write is no longer offered, and a late "written" is refused.
    expect((await desk(cardNo)).pendingWrites).toEqual([]);
    const late = await post(CARD_CALLS.confirmWrite, {
      writeId: second.write!.id,
      outcome: 'written',
    });
    expect(late.status).toBe(409);
    const listed = await call<{ data: CardWrite[] }>(server, 'GET', CARD_CALLS.writes, {
      token,
      query: { state: 'failed', cardNo },
    });
    expect(listed.body.data.map((row) => row.id)).toEqual([second.write!.id]);
  });

  test('report lost, replace (the balance carried), and the refusals on the way', async () => {
    const lost = await registerCard();
    await bind(lost, households[6]!);
    const recharged = await recharge(lost, 4200, 2);
    await confirm(recharged.write!.id, 'written');

    const fresh = await registerCard();
    const notLost = await post(CARD_CALLS.replace, {
      idempotencyKey: randomUUID(),
      lostCardNo: lost,
      newCardNo: fresh,
    });
    expect(notLost.status).toBe(409);
    expect(notLost.body.errors?.[0]?.field).toBe('lostCardNo');

    const reportBody = { idempotencyKey: randomUUID(), cardNo: lost, reader };
    const reported = await post(CARD_CALLS.reportLost, reportBody);
    expect(reported.body.data).toMatchObject({ cardState: 'lost', replayed: false });
    expect((await post(CARD_CALLS.reportLost, reportBody)).body.data.replayed).toBe(true);
    const twice = await post(CARD_CALLS.reportLost, {
      ...reportBody,
      idempotencyKey: randomUUID(),
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(`Card number: card ${lost} is reported lost`);
    // A lost card takes no money.
    const refused = await post(CARD_CALLS.recharge, {
      idempotencyKey: randomUUID(),
      cardNo: lost,
      amountFen: 100,
      method: 'cash',
      cardSequence: 3,
    });
    expect(refused.status).toBe(409);

    const bound = await registerCard();
    await bind(bound, households[7]!);
    const inUse = await post(CARD_CALLS.replace, {
      idempotencyKey: randomUUID(),
      lostCardNo: lost,
      newCardNo: bound,
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.errors?.[0]?.field).toBe('newCardNo');

    const replaceBody = {
      idempotencyKey: randomUUID(),
      lostCardNo: lost,
      newCardNo: fresh,
      reader,
    };
    const replaced = await post(CARD_CALLS.replace, replaceBody);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data).toMatchObject({ cardNo: fresh, cardState: 'bound' });
    expect(replaced.body.data.write!.image).toEqual({
      cardNo: fresh,
      balanceFen: 4200,
      sequence: 1,
    });
    const again = await post(CARD_CALLS.replace, replaceBody);
    expect(again.body.data).toMatchObject({ replayed: true });
    expect(again.body.data.write!.id).toBe(replaced.body.data.write!.id);

    const view = await desk(fresh);
    expect(view.card).toMatchObject({ cardState: 'bound', replacesCardNo: lost });
    expect(view.household?.id).toBe(households[6]);
    expect(view.balance?.availableFen).toBe(4200);
    expect((await desk(lost)).card).toMatchObject({
      cardState: 'replaced',
      replacedByCardNo: fresh,
    });
  });

  test('reclaim refunds exactly what is available and cancels the card', async () => {
    const cardNo = await registerCard();
    await bind(cardNo, households[8]!);
    await recharge(cardNo, 2500);
    await recharge(cardNo, 130, 1);
    const body = { idempotencyKey: randomUUID(), cardNo, reader };
    const reclaimed = await post(CARD_CALLS.reclaim, body);
    expect(reclaimed.status, JSON.stringify(reclaimed.body)).toBe(200);
    expect(reclaimed.body.data).toMatchObject({
      cardState: 'cancelled',
      amountFen: 2630,
      balance: { availableFen: 0, heldFen: 0 },
    });
    const again = await post(CARD_CALLS.reclaim, body);
    expect(again.body.data).toMatchObject({ replayed: true, txnId: reclaimed.body.data.txnId });
    // Its writes not on the card will never be: nothing is left open for it.
    expect((await desk(cardNo)).pendingWrites).toEqual([]);
    const cancelled = await post(CARD_CALLS.reclaim, { ...body, idempotencyKey: randomUUID() });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toBe(`Card number: card ${cardNo} is cancelled`);

    // A household with another card in use keeps its money when one card is reclaimed.
    const first = await registerCard();
    const second = await registerCard();
    await bind(first, households[9]!);
    await bind(second, households[9]!);
    await recharge(first, 900);
    const kept = await post(CARD_CALLS.reclaim, { idempotencyKey: randomUUID(), cardNo: first });
    expect(kept.body.data).toMatchObject({ cardState: 'cancelled', amountFen: 0, txnId: null });
    expect((await desk(second)).balance?.availableFen).toBe(900);
  });

  test('parallel retries of one recharge post once and answer one write', async () => {
    const cardNo = await registerCard();
    await bind(cardNo, households[10]!);
    const body = {
      idempotencyKey: randomUUID(),
      cardNo,
      amountFen: 700,
      method: 'cash',
      cardSequence: 0,
    };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(CARD_CALLS.recharge, body)),
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(new Set(answers.map((answer) => answer.body.data.write!.id)).size).toBe(1);
    expect((await desk(cardNo)).balance?.availableFen).toBe(700);
  });

  test('the desks report their readers', async () => {
    const answer = await call<{
      data: Array<{ serial: string; username: string; operations: number }>;
    }>(server, 'GET', CARD_CALLS.readers, { token });
    expect(answer.status).toBe(200);
    const row = answer.body.data.find((reader) => reader.serial === 'SIM-DESK-1');
    expect(row).toMatchObject({ username: 'admin' });
    expect(row!.operations).toBeGreaterThan(5);
  });
});
