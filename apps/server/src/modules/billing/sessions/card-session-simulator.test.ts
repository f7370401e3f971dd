import { CardControllerModel, createEnvironment, createRandom, VirtualDevice } from '@shuili/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';
import { LedgerService } from '../ledger/ledger.service';
import {
  brokerUrlOf,
  fundedCard,
  seededControllers,
  setWellBilling,
  until,
} from './card-session-test-kit';

/*
 * The simulator's card controller (@shuili/sim: physics, credentials, MQTT and all) against the
 * real server: online, a swipe is authorized, the pump runs on the server's credit and the
 * record settles the session; offline, it runs on the card and uploads its record when back
 * (maybe twice), which is charged once, late.
 */
describe.each(BACKENDS)('card controller simulator on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let tenantId: string;
  const ledger = new LedgerService();
  const inTenant = <T>(work: (sql: Sql) => Promise<T>) => server.db.tenant(tenantId, work);

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
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  test('online and offline sessions of a simulated controller are posted once each', async () => {
    const [controller] = await seededControllers(server);
    // The demo's well may charge by another mode: this one by m³.
    await inTenant((sql) => setWellBilling(sql, tenantId, controller!.deviceId, 'm3'));
    const { householdId: household, cardNo } = await fundedCard(server, tenantId, {
      householdName: 'Simulated farmer',
      basePrice: 12,
      fundedFen: 50_000,
    });

    const clock = { aheadMs: 0 };
    const now = () => Date.now() + clock.aheadMs;
    const random = createRandom(20);
    const physics = new CardControllerModel(random.fork(), now(), { swipesPerDay: 0 });
    const device = new VirtualDevice({
      brokerUrl: brokerUrlOf(server),
      identity: controller!.identity,
      secret: controller!.secret,
      kind: 'card_controller',
      thingModel: controller!.thingModel,
      // Readings when the test says (publishTelemetry), not on a timer of their own.
      intervalMs: 3_600_000,
      random,
      env: createEnvironment({ random: random.fork(), start: now(), rain: [] }),
      now,
      offlineProbability: 0,
      physics,
    });
    const sessions = () =>
      server.db.system(async (sql) => {
        const { rows } = await sql.query<{
          state: string;
          late: boolean;
          amount_fen: string | null;
          controller_amount_fen: string | null;
          volume_m3: string | null;
        }>(`SELECT * FROM billing_session WHERE card_no = $1 ORDER BY id`, [cardNo]);
        return rows;
      });
    try {
      await device.start();
      physics.swipe(cardNo);
      await device.sendEvents();
      await until(
        'the pump runs on the server’s credit',
        async () => physics.values(),
        (values) => Boolean(values['pumpRunning']),
      );
      // Four hours on: the card was taken off (a session lasts at most three) and recorded.
      clock.aheadMs += 4 * 3_600_000;
      await device.publishTelemetry();
      const [online] = await until('the session settled', sessions, (rows) =>
        rows.some((row) => row.state === 'settled'),
      );
      expect(online).toMatchObject({ late: false });
      // 40 m³/h at 12 fen: the controller's count and the server's agree to the fen's rounding.
      expect(
        Math.abs(Number(online!.amount_fen) - Number(online!.controller_amount_fen)),
      ).toBeLessThanOrEqual(1);
      expect(Number(online!.amount_fen)).toBe(Math.round(Number(online!.volume_m3) * 12));

      // Offline: the card's own balance runs the pump; the record goes up on the way back.
      device.dropOffline();
      physics.swipe(cardNo);
      clock.aheadMs += 4 * 3_600_000;
      await device.publishTelemetry();
      await device.comeBack();
      const rows = await until('the offline session charged', sessions, (list) =>
        list.some((row) => row.state === 'consumed'),
      );
      expect(rows.filter((row) => row.state === 'consumed')).toHaveLength(1);
      expect(rows.find((row) => row.state === 'consumed')).toMatchObject({ late: true });
      const money = await inTenant((sql) => ledger.householdBalance(sql, tenantId, household));
      const charged = rows.reduce((sum, row) => sum + Number(row.amount_fen ?? 0), 0);
      expect(money).toEqual({ availableFen: 50_000 - charged, heldFen: 0 });
    } finally {
      await device.stop();
    }
  });
});
