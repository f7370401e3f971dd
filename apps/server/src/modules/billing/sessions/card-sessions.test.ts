import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';
import { auditLedger, soundAudit } from '../ledger/ledger-test-kit';
import { LedgerService } from '../ledger/ledger.service';
import {
  brokerUrlOf,
  FakeController,
  insertCard,
  insertHousehold,
  insertPriceClass,
  seededControllers,
  sessionRecord,
  setWellBilling,
  until,
} from './card-session-test-kit';
import { sessionCheckProcessor } from './session-check.processor';

/*
 * The card controllers' sessions exactly once (issue 20 item 5) against the real server and its
 * embedded broker, on PGlite and PostgreSQL: controllers are the demo's seeded card_controller
 * devices, connected with their own credentials; what they send is what a test says.
 */
describe.each(BACKENDS)('card sessions on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let tenantId: string;
  let cashierId: string;
  let classId: string;
  let controllers: FakeController[];
  const ledger = new LedgerService();
  const year = new Date().getFullYear();
  const key = () => crypto.randomUUID();

  const inTenant = <T>(work: (sql: Sql) => Promise<T>) => server.db.tenant(tenantId, work);
  const balance = (householdId: string) =>
    inTenant((sql) => ledger.householdBalance(sql, tenantId, householdId));
  const recharge = (householdId: string, amountFen: number) =>
    inTenant((sql) =>
      ledger.recharge(sql, {
        tenantId,
        idempotencyKey: key(),
        householdId,
        amountFen,
        method: 'cash',
        cashierId,
      }),
    );
  const household = async (name: string, fen: number, quotaM3?: number) => {
    const id = await inTenant((sql) =>
      insertHousehold(sql, tenantId, {
        name,
        priceClassId: classId,
        ...(quotaM3 !== undefined ? { quotaM3, year } : {}),
      }),
    );
    if (fen > 0) await recharge(id, fen);
    return id;
  };
  const card = (householdId: string | null, state = 'bound') => {
    const cardNo = crypto.randomBytes(5).toString('hex').toUpperCase();
    return inTenant((sql) => insertCard(sql, tenantId, cardNo, householdId, state)).then(
      () => cardNo,
    );
  };
  const sessions = (where: string, params: unknown[]) =>
    server.db.system(async (sql) => {
      const { rows } = await sql.query<{
        id: string;
        state: string;
        amount_fen: string | null;
        controller_amount_fen: string | null;
        volume_m3: string | null;
        m3_per_kwh: string | null;
        tier_parts: Array<{ tier: number; volumeM3: number }> | null;
        late: boolean;
        lost_card: boolean;
        hold_txn_id: string | null;
        settle_txn_id: string | null;
        problem: string | null;
      }>(`SELECT * FROM billing_session WHERE ${where} ORDER BY id`, params);
      return rows;
    });
  const uploads = (deviceId: string, recordNo: number) =>
    server.db.system(async (sql) => {
      const { rows } = await sql.query<{ status: string }>(
        `SELECT status FROM billing_controller_record WHERE device_id = $1 AND record_no = $2 ORDER BY id`,
        [deviceId, recordNo],
      );
      return rows.map((row) => row.status);
    });
  const txns = (where: string, params: unknown[]) =>
    server.db.system(async (sql) => {
      const { rows } = await sql.query<{ kind: string; amount_fen: string }>(
        `SELECT kind, amount_fen::text FROM billing_txn WHERE ${where} ORDER BY id`,
        params,
      );
      return rows;
    });
  const alarms = (ruleName: string, deviceId: string) =>
    server.db.system(async (sql) => {
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM iot_alarm_record r JOIN iot_alarm_rule u ON u.id = r.rule_id
          WHERE u.rule_name = $1 AND r.device_id = $2`,
        [ruleName, deviceId],
      );
      return rows[0]!.n;
    });
  const startedAgo = (minutes: number) => Date.now() - minutes * 60_000;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    const { rows } = await server.db.system((sql) =>
      sql.query<{ tenant: string; user: string }>(
        `SELECT t.id::text AS tenant, u.id::text AS user FROM tenant t
           JOIN sys_user u ON u.tenant_id = t.id AND u.username = 'admin'
          WHERE t.tenant_code = 'demo'`,
      ),
    );
    tenantId = rows[0]!.tenant;
    cashierId = rows[0]!.user;
    // Base 10 fen/m³ within the quota, 1.5× up to 20 % over it, 2× beyond.
    classId = await inTenant((sql) =>
      insertPriceClass(sql, tenantId, {
        name: `Grain ${key().slice(0, 8)}`,
        basePrice: 10,
        quotaPerMu: 10,
        tiers: [
          { overQuotaPercent: 20, multiplier: 1.5 },
          { overQuotaPercent: null, multiplier: 2 },
        ],
      }),
    );
    // The demo's wells charge by several modes: these tests' by m³ unless one says otherwise.
    const wells = await seededControllers(server);
    for (const well of wells)
      await inTenant((sql) => setWellBilling(sql, tenantId, well.deviceId, 'm3'));
    const url = brokerUrlOf(server);
    controllers = wells.map((device) => new FakeController(url, device));
    expect(controllers.length).toBeGreaterThanOrEqual(3);
    for (const controller of controllers) await controller.connect();
  }, 180_000);

  afterAll(async () => {
    if (!server) return;
    for (const controller of controllers ?? []) await controller.disconnect();
    // Whatever the tests did, the whole ledger balances and no balance went below zero.
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  test('a swipe holds the balance, the record settles the real amount split by tier and releases the rest', async () => {
    const [c1] = controllers;
    const h = await household('Swipe household', 10_000, 100);
    const cardNo = await card(h);
    await c1!.swipe(cardNo, 10_000);
    const authorize = await c1!.nth('authorizeSession');
    expect(authorize.params).toMatchObject({
      cardNo,
      creditFen: 10_000,
      billingMode: 'm3',
      unitPriceFen: 10,
    });
    expect(await balance(h)).toEqual({ availableFen: 0, heldFen: 10_000 });
    const sessionId = String(authorize.params['sessionId']);
    // 110 m³ against a quota of 100: 100 at 10 fen, 10 at 15 fen = 1,150 fen.
    await c1!.event(
      'sessionEnd',
      sessionRecord({
        recordNo: 1,
        sessionId,
        cardNo,
        startedAt: startedAgo(90),
        m3: 110,
        amountFen: 1_100,
      }),
    );
    const [session] = await until(
      'the session settled',
      () => sessions('id = $1', [sessionId]),
      (rows) => rows[0]?.state === 'settled',
    );
    expect(session).toMatchObject({
      amount_fen: '1150',
      controller_amount_fen: '1100',
      late: false,
    });
    expect(Number(session!.volume_m3)).toBe(110);
    expect(session!.tier_parts!.map((part) => [part.tier, part.volumeM3])).toEqual([
      [0, 100],
      [1, 10],
    ]);
    expect(await balance(h)).toEqual({ availableFen: 8_850, heldFen: 0 });
    expect((await txns('session_id = $1', [sessionId])).map((txn) => txn.kind)).toEqual([
      'hold',
      'settle',
    ]);
    expect(await uploads(c1!.device.deviceId, 1)).toEqual(['posted']);
  });

  test('parallel swipes of one household at three wells hold its money once and never go below zero', async () => {
    const h = await household('Parallel household', 5_000);
    const cards = await Promise.all(controllers.slice(0, 3).map(() => card(h)));
    const before = controllers.map((controller) => controller.received.length);
    await Promise.all(controllers.slice(0, 3).map((controller, i) => controller.swipe(cards[i]!)));
    const answers = await until(
      'every controller answered',
      async () =>
        controllers
          .slice(0, 3)
          .map((controller, i) =>
            controller.received
              .slice(before[i])
              .find(
                (command) => command.name === 'authorizeSession' || command.name === 'rejectCard',
              ),
          ),
      (list) => list.every(Boolean),
    );
    const authorized = answers.filter((command) => command!.name === 'authorizeSession');
    expect(authorized).toHaveLength(1);
    expect(authorized[0]!.params['creditFen']).toBe(5_000);
    for (const rejected of answers.filter((command) => command!.name === 'rejectCard'))
      expect(rejected!.params['reason']).toBe('noBalance');
    expect(await balance(h)).toEqual({ availableFen: 0, heldFen: 5_000 });
    // The pump drew nothing: the record settles nothing and gives the whole hold back.
    const index = answers.indexOf(authorized[0]);
    await controllers[index]!.event(
      'sessionEnd',
      sessionRecord({
        recordNo: 2,
        sessionId: String(authorized[0]!.params['sessionId']),
        cardNo: cards[index]!,
        startedAt: startedAgo(5),
        m3: 0,
        amountFen: 0,
      }),
    );
    await until(
      'the hold released',
      () => balance(h),
      (money) => money.availableFen === 5_000,
    );
    expect((await balance(h)).heldFen).toBe(0);
  });

  test('a late record sent twice posts once; the same key with another amount is refused and raised', async () => {
    const c2 = controllers[1]!;
    const h = await household('Late household', 3_000, 100);
    const cardNo = await card(h);
    const record = sessionRecord({
      recordNo: 100,
      cardNo,
      startedAt: startedAgo(600),
      m3: 10,
      amountFen: 100,
    });
    await c2.event('sessionEnd', record);
    await c2.event('sessionEnd', record);
    expect(await uploads(c2.device.deviceId, 100)).toEqual(['posted', 'duplicate']);
    const late = await sessions('device_id = $1 AND record_no = 100', [c2.device.deviceId]);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ state: 'consumed', late: true, amount_fen: '100' });
    expect(await txns('household_id = $1 AND kind = $2', [h, 'consumption'])).toEqual([
      { kind: 'consumption', amount_fen: '100' },
    ]);
    expect(await balance(h)).toEqual({ availableFen: 2_900, heldFen: 0 });

    const alarmsBefore = await alarms('Controller record conflict', c2.device.deviceId);
    await c2.event('sessionEnd', { ...record, amountFen: 999 });
    expect(await uploads(c2.device.deviceId, 100)).toEqual(['posted', 'duplicate', 'conflict']);
    expect(await balance(h)).toEqual({ availableFen: 2_900, heldFen: 0 });
    await until(
      'the conflict raised',
      () => alarms('Controller record conflict', c2.device.deviceId),
      (n) => n === alarmsBefore + 1,
    );
  });

  test('a lost card is refused at the next contact, and every controller, even one offline, gets the blacklist', async () => {
    const [c1, c2, c3] = controllers;
    const h = await household('Lost card household', 2_000);
    const cardNo = await card(h);
    await c2!.disconnect();
    await inTenant((sql) =>
      sql.query(`UPDATE billing_card SET card_state = 'lost' WHERE card_no = $1`, [cardNo]),
    );
    const alarmsBefore = await alarms('Invalid or lost card', c3!.device.deviceId);
    const nextReject = c3!.commands('rejectCard').length + 1;
    await c3!.swipe(cardNo);
    const rejected = await c3!.nth('rejectCard', nextReject);
    expect(rejected.params).toEqual({ cardNo, reason: 'lost' });
    expect(await balance(h)).toEqual({ availableFen: 2_000, heldFen: 0 });
    await until(
      'the lost card raised',
      () => alarms('Invalid or lost card', c3!.device.deviceId),
      (n) => n === alarmsBefore + 1,
    );
    const listed = (controller: FakeController) =>
      controller
        .commands('syncBlacklist')
        .some((command) => String(command.params['cardNos']).split(',').includes(cardNo));
    await until('the online controller has the blacklist', async () => listed(c1!), Boolean);
    // The controller that was away gets it when it is back.
    await c2!.connect();
    await until('the returning controller has the blacklist', async () => listed(c2!), Boolean);
  });

  test('an aborted session is voided once: refused by the controller, or no end in time (its late record charged once)', async () => {
    const c1 = controllers[0]!;
    const h = await household('Aborted household', 3_000, 100);
    const cardNo = await card(h);
    c1.refuse.add('authorizeSession');
    const first = c1.commands('authorizeSession').length + 1;
    await c1.swipe(cardNo);
    const refused = await c1.nth('authorizeSession', first);
    await until(
      'the refused session voided',
      () => balance(h),
      (money) => money.availableFen === 3_000,
    );
    c1.refuse.delete('authorizeSession');
    const refusedId = String(refused.params['sessionId']);
    expect((await sessions('id = $1', [refusedId]))[0]).toMatchObject({
      state: 'voided',
      problem: 'refusedByController',
    });
    expect((await txns('session_id = $1', [refusedId])).map((txn) => txn.kind)).toEqual([
      'hold',
      'void',
    ]);

    // Taken, then never ended: the check on the scheduler voids it, once however often it runs.
    const second = c1.commands('authorizeSession').length + 1;
    await c1.swipe(cardNo);
    const taken = await c1.nth('authorizeSession', second);
    const sessionId = String(taken.params['sessionId']);
    expect((await balance(h)).heldFen).toBe(3_000);
    const check = sessionCheckProcessor({
      db: server.db,
      sessions: server.app.cardSessions.sessions,
      maxSessionMs: 0,
    });
    const run = {
      runId: key(),
      triggerId: '0',
      tenantId,
      kind: 'billing.sessionCheck',
      key: `billing-session:${sessionId}:expire`,
      fireAt: new Date(),
      attempt: 1,
      payload: { sessionId, stage: 'expire' as const },
      timeZone: 'Asia/Shanghai',
      node: 'test',
    };
    await Promise.all([check(run), check({ ...run, attempt: 2 })]);
    expect(await balance(h)).toEqual({ availableFen: 3_000, heldFen: 0 });
    expect((await txns('session_id = $1', [sessionId])).map((txn) => txn.kind)).toEqual([
      'hold',
      'void',
    ]);
    // Its record, when it comes after all, is charged on its own (late), once.
    const record = sessionRecord({
      recordNo: 300,
      sessionId,
      cardNo,
      startedAt: startedAgo(30),
      m3: 20,
      amountFen: 200,
    });
    await c1.event('sessionEnd', record);
    await c1.event('sessionEnd', record);
    const [late] = await sessions('id = $1', [sessionId]);
    expect(late).toMatchObject({ state: 'consumed', late: true, amount_fen: '200' });
    expect(await balance(h)).toEqual({ availableFen: 2_800, heldFen: 0 });
  });

  test('an authorization cannot be sent by hand (it would run a pump on no hold): a translated 409', async () => {
    const token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const c1 = controllers[0]!;
    for (const lang of ['en', 'zh'] as const) {
      const sent = await call(server, 'POST', '/api/iot/command/sendCommand', {
        token,
        lang,
        body: {
          deviceId: c1.device.deviceId,
          name: 'authorizeSession',
          params: {
            sessionId: '1',
            cardNo: 'AAAA0000',
            creditFen: 100,
            billingMode: 'm3',
            unitPriceFen: 10,
            m3PerKwh: 0,
          },
        },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(409);
      expect(String(sent.body.msg ?? sent.body.message)).toContain('authorizeSession');
    }
  });

  test('energy converted to water with the coefficient valid at the session start', async () => {
    const c3 = controllers[2]!;
    await inTenant((sql) =>
      setWellBilling(sql, tenantId, c3.device.deviceId, 'energyToWater', {
        coefficients: [
          { coefficient: 0.5, validFrom: new Date(`${year}-01-01T00:00:00+08:00`) },
          { coefficient: 0.8, validFrom: new Date(`${year}-06-01T00:00:00+08:00`) },
        ],
      }),
    );
    const h = await household('Coefficient household', 5_000, 1_000);
    const cardNo = await card(h);
    const before = new Date(`${year}-05-31T08:00:00+08:00`).getTime();
    const after = new Date(`${year}-06-02T08:00:00+08:00`).getTime();
    await c3.event(
      'sessionEnd',
      sessionRecord({ recordNo: 400, cardNo, startedAt: before, m3: 9, kwh: 10, amountFen: 50 }),
    );
    await c3.event(
      'sessionEnd',
      sessionRecord({ recordNo: 401, cardNo, startedAt: after, m3: 9, kwh: 10, amountFen: 80 }),
    );
    const rows = await sessions('device_id = $1 AND record_no IN (400, 401)', [c3.device.deviceId]);
    expect(
      rows.map((row) => [Number(row.volume_m3), Number(row.m3_per_kwh), row.amount_fen]),
    ).toEqual([
      [5, 0.5, '50'],
      [8, 0.8, '80'],
    ]);
    expect(await balance(h)).toEqual({ availableFen: 4_870, heldFen: 0 });
    // A swipe there is told the coefficient valid now.
    const next = c3.commands('authorizeSession').length + 1;
    await c3.swipe(cardNo);
    const authorize = await c3.nth('authorizeSession', next);
    expect(authorize.params).toMatchObject({ billingMode: 'energyToWater', m3PerKwh: 0.8 });
  });
});
