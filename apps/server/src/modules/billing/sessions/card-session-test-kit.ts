import crypto from 'node:crypto';
import { deviceTopic, type CommandPayload, type ThingModel } from '@shuili/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { Sql } from '../../../db/database';
import { LedgerService } from '../ledger/ledger.service';
import type { TestServer } from '@shuili/test-support/test-server';

/*
 * Fixtures of the card session tests: the billing set-up rows (price class with tiers, households,
 * bound cards, water rights, well settings) written straight into the demo tenant, the demo's
 * card controllers with fresh secrets, and a controller played by a bare MQTT client, so a test
 * says exactly what the controller sends and when.
 */

/** Polls until a value satisfies `done` (the server gets there on its own time). */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface SeededController {
  deviceId: string;
  deviceNo: string;
  identity: string;
  secret: string;
  thingModel: ThingModel;
}

/** The demo tenant's card controllers with secrets issued now, by device number. */
export async function seededControllers(server: TestServer): Promise<SeededController[]> {
  const issued = await server.app.deviceCredentials.issueDemoCredentials('demo');
  const { rows } = await server.db.system((sql) =>
    sql.query<{ id: string; device_kind: string; thing_model: ThingModel }>(
      `SELECT d.id::text, p.device_kind, p.thing_model
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY($1::bigint[])`,
      [issued.map((device) => device.deviceId)],
    ),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return issued
    .filter((device) => byId.get(device.deviceId)?.device_kind === 'card_controller')
    .map((device) => ({
      deviceId: device.deviceId,
      deviceNo: device.deviceNo,
      identity: device.identity,
      secret: device.secret,
      thingModel: byId.get(device.deviceId)!.thing_model,
    }))
    .sort((a, b) => a.deviceNo.localeCompare(b.deviceNo));
}

export function brokerUrlOf(server: TestServer): string {
  const { tcpPort, wsPath } = server.app.deviceTransport.endpoints();
  return tcpPort ? `mqtt://127.0.0.1:${tcpPort}` : `${server.url.replace('http', 'ws')}${wsPath}`;
}

/** A price class (fen per m³, m³ per mu) with its tiers; answers its id. */
export async function insertPriceClass(
  sql: Sql,
  tenantId: string,
  input: {
    name: string;
    basePrice: number;
    quotaPerMu: number;
    tiers: Array<{ overQuotaPercent: number | null; multiplier: number }>;
  },
): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO billing_price_class (tenant_id, class_name, base_price, quota_per_mu)
     VALUES ($1, $2, $3, $4) RETURNING id::text`,
    [tenantId, input.name, input.basePrice, input.quotaPerMu],
  );
  const id = rows[0]!.id;
  for (const tier of input.tiers)
    await sql.query(
      `INSERT INTO billing_price_tier (tenant_id, price_class_id, over_quota_percent, multiplier)
       VALUES ($1, $2, $3, $4)`,
      [tenantId, id, tier.overQuotaPercent, tier.multiplier],
    );
  return id;
}

/** A household of the class with its water right for `year`; answers its id. */
export async function insertHousehold(
  sql: Sql,
  tenantId: string,
  input: { name: string; priceClassId: string; quotaM3?: number; year?: number; area?: number },
): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO billing_household (tenant_id, household_name, village, irrigated_area, price_class_id)
     VALUES ($1, $2, 'Dongzhuang', $3, $4) RETURNING id::text`,
    [tenantId, input.name, input.area ?? 10, input.priceClassId],
  );
  const id = rows[0]!.id;
  if (input.quotaM3 !== undefined)
    await sql.query(
      `INSERT INTO billing_water_right (tenant_id, household_id, year, quota_m3) VALUES ($1, $2, $3, $4)`,
      [tenantId, id, input.year ?? new Date().getFullYear(), input.quotaM3],
    );
  return id;
}

/** A user card bound to the household; answers its id. */
export async function insertCard(
  sql: Sql,
  tenantId: string,
  cardNo: string,
  householdId: string | null,
  state = 'bound',
): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO billing_card (tenant_id, card_no, card_type, household_id, card_state)
     VALUES ($1, $2, 'user', $3, $4) RETURNING id::text`,
    [tenantId, cardNo, householdId, state],
  );
  return rows[0]!.id;
}

/**
 * A household of a fresh single-price class (fen per m³) with a bound card and `fundedFen`
 * recharged in cash by the tenant's admin: what a swipe test needs before the first swipe.
 */
export async function fundedCard(
  server: TestServer,
  tenantId: string,
  input: { householdName: string; basePrice: number; fundedFen: number },
): Promise<{ householdId: string; cardNo: string }> {
  return server.db.tenant(tenantId, async (sql) => {
    const priceClassId = await insertPriceClass(sql, tenantId, {
      name: `${input.householdName} ${crypto.randomUUID().slice(0, 8)}`,
      basePrice: input.basePrice,
      quotaPerMu: 100,
      tiers: [],
    });
    const householdId = await insertHousehold(sql, tenantId, {
      name: input.householdName,
      priceClassId,
    });
    const cardNo = crypto.randomBytes(5).toString('hex').toUpperCase();
    await insertCard(sql, tenantId, cardNo, householdId);
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id::text FROM sys_user WHERE tenant_id = $1 AND username = 'admin'`,
      [tenantId],
    );
    await new LedgerService().recharge(sql, {
      tenantId,
      idempotencyKey: crypto.randomUUID(),
      householdId,
      amountFen: input.fundedFen,
      method: 'cash',
      cashierId: rows[0]!.id,
    });
    return { householdId, cardNo };
  });
}

/**
 * A well's billing mode (the demo seeds one per controller), and for energyToWater its
 * coefficients from their dates (replacing the ones it had).
 */
export async function setWellBilling(
  sql: Sql,
  tenantId: string,
  deviceId: string,
  mode: 'm3' | 'kwh' | 'time' | 'energyToWater',
  extra: {
    pricePerKwh?: number;
    coefficients?: Array<{ coefficient: number; validFrom: Date }>;
  } = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO billing_well_setting (tenant_id, device_id, billing_mode, price_per_kwh)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, device_id) DO UPDATE SET billing_mode = EXCLUDED.billing_mode,
       price_per_kwh = EXCLUDED.price_per_kwh`,
    [tenantId, deviceId, mode, extra.pricePerKwh ?? null],
  );
  // The demo seeds coefficients of its own: a test's history replaces them.
  if (extra.coefficients)
    await sql.query(`DELETE FROM billing_water_coefficient WHERE device_id = $1`, [deviceId]);
  for (const one of extra.coefficients ?? [])
    await sql.query(
      `INSERT INTO billing_water_coefficient (tenant_id, device_id, m3_per_kwh, valid_from)
       VALUES ($1, $2, $3, $4)`,
      [tenantId, deviceId, one.coefficient, one.validFrom],
    );
}

/** A command as the controller received it. */
export type ReceivedCommand = CommandPayload;

/**
 * A card controller played by a bare MQTT client with the device's own credentials: it sends
 * what the test says and acknowledges every command (ok, unless `refuse` names it).
 */
export class FakeController {
  readonly received: ReceivedCommand[] = [];
  refuse = new Set<string>();
  private client: MqttClient | undefined;

  constructor(
    private readonly brokerUrl: string,
    readonly device: SeededController,
    private readonly tenantCode = 'demo',
  ) {}

  private topic(channel: 'event' | 'cmd' | 'cmd/ack' | 'status') {
    return deviceTopic(this.tenantCode, this.device.deviceNo, channel);
  }

  async connect(): Promise<void> {
    const client = await mqtt.connectAsync(this.brokerUrl, {
      clientId: this.device.identity,
      username: this.device.identity,
      password: this.device.secret,
      clean: true,
      reconnectPeriod: 0,
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic !== this.topic('cmd')) return;
      const command = JSON.parse(payload.toString('utf8')) as ReceivedCommand;
      this.received.push(command);
      const ok = !this.refuse.has(command.name);
      void client.publishAsync(
        this.topic('cmd/ack'),
        JSON.stringify({ id: command.id, ok, ...(ok ? {} : { message: 'refused' }) }),
        { qos: 1 },
      );
    });
    await client.subscribeAsync(this.topic('cmd'), { qos: 1 });
    await client.publishAsync(this.topic('status'), JSON.stringify({ online: true }), {
      qos: 1,
      retain: true,
    });
  }

  async disconnect(): Promise<void> {
    await this.client?.endAsync();
    this.client = undefined;
  }

  /**
   * Publishes an event stamped with its time, as controllers stamp theirs (QoS 1: with the
   * embedded broker, resolves once the server stored and handled it).
   */
  async event(key: string, params: Record<string, unknown>, ts = Date.now()): Promise<void> {
    await this.client!.publishAsync(this.topic('event'), JSON.stringify({ ts, key, params }), {
      qos: 1,
    });
  }

  swipe(cardNo: string, cardBalanceFen = 0): Promise<void> {
    return this.event('cardSwipe', { cardNo, cardBalanceFen, cardSequence: 1 });
  }

  /** The commands of a name received so far. */
  commands(name: string): ReceivedCommand[] {
    return this.received.filter((command) => command.name === name);
  }

  /** Waits for the `n`-th command of a name (1: the first). */
  nth(name: string, n = 1): Promise<ReceivedCommand> {
    return until(
      `${this.device.deviceNo} receives ${name} #${n}`,
      async () => this.commands(name),
      (list) => list.length >= n,
    ).then((list) => list[n - 1]!);
  }
}

/** A session's end as the controller reports it (meters in kWh and m³, times in ms). */
export function sessionRecord(input: {
  recordNo: number;
  sessionId?: string;
  cardNo: string;
  startedAt: number;
  minutes?: number;
  kwh?: number;
  m3: number;
  amountFen: number;
  kwhStart?: number;
  m3Start?: number;
}): Record<string, unknown> {
  const kwhStart = input.kwhStart ?? 1000;
  const m3Start = input.m3Start ?? 5000;
  return {
    recordNo: input.recordNo,
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    cardNo: input.cardNo,
    startedAt: input.startedAt,
    endedAt: input.startedAt + (input.minutes ?? 60) * 60_000,
    kwhStart,
    kwhEnd: kwhStart + (input.kwh ?? input.m3 * 0.3),
    m3Start,
    m3End: m3Start + input.m3,
    endReason: 'cardRemoved',
    amountFen: input.amountFen,
  };
}
