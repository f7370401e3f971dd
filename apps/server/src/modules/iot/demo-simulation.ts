import { COUNTER_FACTORS, type ThingModel } from '@shuili/contract';
import { startLightSimulation } from '@shuili/sim';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';

/**
 * `npm start`'s light simulation (off with SIM=0): the demo tenant's devices connect to this
 * node's own broker like any field device, with credentials issued for them at each start (the
 * previous ones stop working, which is fine for demo devices), so a new user sees live values,
 * answered commands and the odd device going offline at once. Answers a stopper.
 */
export async function startDemoSimulation(
  app: FastifyInstance,
  db: Database,
  httpPort: number,
): Promise<() => Promise<void>> {
  const issued = await app.deviceCredentials.issueDemoCredentials('demo');
  if (issued.length === 0) return async () => undefined;
  const kinds = await db.system((sql) =>
    sql.query<{ id: string; device_kind: string; thing_model: ThingModel }>(
      `SELECT d.id::text, p.device_kind, p.thing_model
         FROM iot_device d JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
        WHERE d.id = ANY($1::bigint[])`,
      [issued.map((device) => device.deviceId)],
    ),
  );
  const byId = new Map(kinds.rows.map((row) => [row.id, row]));
  // The meters' last stored readings (the demo's simulated past, or the previous run): the
  // simulated meters count on from them, so today's water is what flowed today.
  const counters = await db.system((sql) =>
    sql.query<{ device_id: string; key: string; value: number }>(
      `SELECT device_id::text, key, value FROM iot_telemetry_latest
        WHERE device_id = ANY($1::bigint[]) AND key = ANY($2::text[]) AND value IS NOT NULL`,
      // A trap's catch in all counts on too.
      [issued.map((device) => device.deviceId), [...COUNTER_FACTORS, 'totalCount']],
    ),
  );
  const counterStart = new Map<string, Record<string, number>>();
  for (const row of counters.rows)
    counterStart.set(row.device_id, {
      ...counterStart.get(row.device_id),
      [row.key]: row.value,
    });
  // The demo's bound user cards: farmers swipe them at the card controllers (docs/card-billing.md).
  const cards = await db.system((sql) =>
    sql.query<{ card_no: string }>(
      `SELECT c.card_no FROM billing_card c JOIN tenant t ON t.id = c.tenant_id
        WHERE t.tenant_code = 'demo' AND c.card_type = 'user' AND c.card_state = 'bound'
        ORDER BY c.card_no`,
    ),
  );
  const cardNos = cards.rows.map((row) => row.card_no);
  const { tcpPort, wsPath, externalUrl } = app.deviceTransport.endpoints();
  // On an external broker (MQTT_URL) the devices connect there, as field devices do: this node's
  // /mqtt only serves browsers then. Else the embedded broker's TCP listener, which may be absent
  // (its port was taken): the WebSocket path always works.
  const brokerUrl =
    externalUrl ??
    (tcpPort ? `mqtt://127.0.0.1:${tcpPort}` : `ws://127.0.0.1:${httpPort}${wsPath}`);
  const simulation = await startLightSimulation({
    brokerUrl,
    devices: issued.flatMap((device) => {
      const product = byId.get(device.deviceId);
      return product
        ? [
            {
              identity: device.identity,
              secret: device.secret,
              kind: product.device_kind,
              thingModel: product.thing_model,
              ...(counterStart.has(device.deviceId)
                ? { counterStart: counterStart.get(device.deviceId)! }
                : {}),
              ...(product.device_kind === 'card_controller' ? { cardNos } : {}),
            },
          ]
        : [];
    }),
    // Insect traps upload their tray photos to this node like field traps do.
    uploadUrl: `http://127.0.0.1:${httpPort}`,
    onError: (identity, error) => app.log.debug({ err: error, identity }, 'simulated device'),
  });
  app.log.info(
    `light simulation: ${simulation.devices.length} demo devices publishing to ${brokerUrl} (SIM=0 turns it off)`,
  );
  return () => simulation.stop();
}
