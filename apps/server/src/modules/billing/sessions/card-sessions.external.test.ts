import crypto from 'node:crypto';
import type { ThingModel } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';
import { LedgerService } from '../ledger/ledger.service';
import { FakeController, fundedCard, sessionRecord, until } from './card-session-test-kit';

/** The machine's Mosquitto (anonymous clients allowed), when the run names one. */
const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;

/*
 * The card sessions through an external broker (Mosquitto, as telemetry.external.test.ts runs
 * it): the server consumes through a share group of its own, the controller is a new device of
 * the tenant's card controller product (its number unique to this run, since other test
 * servers use the same broker). Mosquitto acknowledges the controller before the server has
 * handled an event, so every outcome is waited for; a message may reach the server more than
 * once, which must change nothing.
 */
describe.each(BACKENDS)('card sessions through Mosquitto on $backend', ({ backend, available }) => {
  const runs = available && Boolean(TEST_MQTT_URL);
  let server: TestServer;
  let controller: FakeController;
  let tenantId: string;
  const inTenant = <T>(work: (sql: Sql) => Promise<T>) => server.db.tenant(tenantId, work);

  beforeAll(async () => {
    if (!runs) return;
    server = await startTestServer({
      backend,
      config: {
        mqttUrl: TEST_MQTT_URL,
        mqttShareGroup: `test${crypto.randomBytes(4).toString('hex')}`,
      },
    });
    const deviceNo = `cw-${crypto.randomBytes(4).toString('hex')}`;
    const device = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string; tenant: string; thing_model: ThingModel }>(
        `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id)
         SELECT p.tenant_id, $1, 'Card well ' || $1, p.id FROM iot_product p
           JOIN tenant t ON t.id = p.tenant_id
          WHERE t.tenant_code = 'demo' AND p.device_kind = 'card_controller'
          ORDER BY p.id LIMIT 1
         RETURNING id::text, tenant_id::text AS tenant,
                   (SELECT thing_model FROM iot_product WHERE id = product_id) AS thing_model`,
        [deviceNo],
      );
      return rows[0]!;
    });
    tenantId = device.tenant;
    // Mosquitto here checks no credentials (its auth plugin would call /api/iot/mqtt/*).
    controller = new FakeController(TEST_MQTT_URL!, {
      deviceId: device.id,
      deviceNo,
      identity: `demo:${deviceNo}`,
      secret: 'unchecked',
      thingModel: device.thing_model,
    });
    await controller.connect();
  }, 180_000);

  afterAll(async () => {
    await controller?.disconnect();
    await server?.close();
  });

  it.skipIf(!runs)(
    'a swipe is authorized and settled once; a late record sent twice posts once',
    async () => {
      const ledger = new LedgerService();
      const { householdId: household, cardNo } = await fundedCard(server, tenantId, {
        householdName: 'Broker household',
        basePrice: 10,
        fundedFen: 5_000,
      });
      const balance = () => inTenant((sql) => ledger.householdBalance(sql, tenantId, household));

      await controller.swipe(cardNo);
      const authorize = await controller.nth('authorizeSession');
      expect(authorize.params).toMatchObject({ cardNo, creditFen: 5_000 });
      const sessionId = String(authorize.params['sessionId']);
      await controller.event(
        'sessionEnd',
        sessionRecord({
          recordNo: 1,
          sessionId,
          cardNo,
          startedAt: Date.now() - 3_600_000,
          m3: 30,
          amountFen: 300,
        }),
      );
      await until('settled', balance, (money) => money.heldFen === 0);
      expect(await balance()).toEqual({ availableFen: 4_700, heldFen: 0 });

      const late = sessionRecord({
        recordNo: 2,
        cardNo,
        startedAt: Date.now() - 7_200_000,
        m3: 5,
        amountFen: 50,
      });
      await controller.event('sessionEnd', late);
      await controller.event('sessionEnd', late);
      const uploads = () =>
        server.db.system(async (sql) => {
          const { rows } = await sql.query<{ status: string }>(
            `SELECT status FROM billing_controller_record WHERE device_id = $1 AND record_no = 2 ORDER BY id`,
            [controller.device.deviceId],
          );
          return rows.map((row) => row.status);
        });
      // Posted once, every other copy a duplicate (an external broker may deliver a message to
      // more than one consumer: each copy is handled, none posts twice).
      const statuses = await until('both uploads handled', uploads, (list) => list.length >= 2);
      expect(statuses[0]).toBe('posted');
      expect(new Set(statuses.slice(1))).toEqual(new Set(['duplicate']));
      expect(await balance()).toEqual({ availableFen: 4_650, heldFen: 0 });
    },
  );
});
