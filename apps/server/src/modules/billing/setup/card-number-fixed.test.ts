import { randomUUID } from 'node:crypto';
import { CARD_CALLS, cardEntity, entityCalls } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { insertHouseholds } from '../ledger/ledger-test-kit';
import { sessionRepo } from '../sessions/session.repo';

/*
 * A lost card must stay refused (issue 20 item 2): the controllers' blacklist names it by its
 * number, so the registration form (the cashier's) may not renumber a lost, replaced or cancelled
 * card, which would take the card in the farmer's pocket off the blacklist of every controller.
 */
describe.each(BACKENDS)('card numbers of blocked cards on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let cashier: string;
  let tenantId: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    cashier = (await signIn(server, 'demo', 'cashier', 'cashier123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
    );
    tenantId = rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  test('a lost card keeps its number (a translated 400 naming it) and stays on the blacklist', async () => {
    const [householdId] = await server.db.system((sql) => insertHouseholds(sql, tenantId, 1));
    const cardNo = 'B10C0001';
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, issued_at)
         VALUES ($1, $2, 'user', 'registered', now()) RETURNING id::text`,
        [tenantId, cardNo],
      ),
    );
    const id = rows[0]!.id;
    const post = (path: string, body: object) =>
      call(server, 'POST', path, { token: cashier, body, lang: 'en' });
    expect(
      (await post(CARD_CALLS.bind, { idempotencyKey: randomUUID(), cardNo, householdId })).status,
    ).toBe(200);
    expect(
      (await post(CARD_CALLS.reportLost, { idempotencyKey: randomUUID(), cardNo })).status,
    ).toBe(200);

    const renumbered = await call(server, 'PUT', entityCalls(cardEntity).update, {
      token: cashier,
      lang: 'en',
      body: { id, cardNo: 'B10C0F0F' },
    });
    expect(renumbered.status, JSON.stringify(renumbered.body)).toBe(400);
    expect(renumbered.body.errors).toEqual([
      {
        field: 'cardNo',
        message:
          'Card number: the card is lost, replaced or cancelled; its number no longer changes (controllers refuse it by number)',
      },
    ]);
    // Its remark still changes; the same number sent again is no change.
    const remarked = await call(server, 'PUT', entityCalls(cardEntity).update, {
      token: cashier,
      body: { id, cardNo: cardNo.toLowerCase(), remark: 'in the drawer' },
    });
    expect(remarked.status, JSON.stringify(remarked.body)).toBe(200);
    const blocked = await server.db.tenant(tenantId, (sql) => sessionRepo.blockedCards(sql));
    expect(blocked).toContain(cardNo);
    expect(blocked).not.toContain('B10C0F0F');
  });
  test('a bound card keeps its household here: moved or unbound, its balance would follow the wrong one', async () => {
    const [first, second] = await server.db.system((sql) => insertHouseholds(sql, tenantId, 2));
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `INSERT INTO billing_card (tenant_id, card_no, card_type, household_id, card_state, issued_at)
         VALUES ($1, 'B10C0002', 'user', $2, 'bound', now()) RETURNING id::text`,
        [tenantId, first],
      ),
    );
    const id = rows[0]!.id;
    for (const householdId of [second, null]) {
      const moved = await call(server, 'PUT', entityCalls(cardEntity).update, {
        token: cashier,
        lang: 'en',
        body: { id, householdId },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(400);
      expect(moved.body.errors[0].field).toBe('householdId');
      expect(moved.body.errors[0].message).toContain('cancel and reclaim it at the desk');
    }
    const same = await call(server, 'PUT', entityCalls(cardEntity).update, {
      token: cashier,
      body: { id, householdId: first, remark: 'same household' },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const { rows: after } = await server.db.system((sql) =>
      sql.query<{ household_id: string }>(
        'SELECT household_id::text FROM billing_card WHERE id = $1',
        [id],
      ),
    );
    expect(after[0]!.household_id).toBe(first);
  });
});
