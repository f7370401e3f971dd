import { idNumberCheckChar } from '@shuili/contract';
import { LedgerService } from '../../modules/billing/ledger/ledger.service';
import { DbSessionPricing } from '../../modules/billing/sessions/session-pricing';
import { SessionRecords } from '../../modules/billing/sessions/session-records';
import type { Sql } from '../database';

/** Crop classes of RESEARCH.md's county: base price (fen/m³) and quota (m³/mu/year). */
const CLASSES = [
  { name: '粮食作物', basePrice: 3, quotaPerMu: 300, remark: '小麦、玉米（0.03元/m³）' },
  { name: '经济作物', basePrice: 5, quotaPerMu: 350, remark: '蔬菜、果树（0.05元/m³）' },
  { name: '水产养殖', basePrice: 7, quotaPerMu: 800, remark: '鱼塘（0.07元/m³）' },
] as const;

/** Every class's tiers over the quota: ≤ 20 % 1.2×, ≤ 50 % 1.5×, beyond 2×. */
const TIERS = [
  { bound: 20, multiplier: 1.2 },
  { bound: 50, multiplier: 1.5 },
  { bound: null, multiplier: 2 },
] as const;

/** Households of four villages of the demo district (south of Jinan: region 370112). */
const HOUSEHOLDS = [
  ['王建国', '东庄村', 12.5, 0, ['小麦', '玉米'], '19620314'],
  ['李秀英', '东庄村', 8, 1, ['蔬菜'], '19701102'],
  ['张伟', '东庄村', 20, 0, ['小麦', '玉米'], '19750621'],
  ['刘强', '西河村', 15.5, 0, ['小麦'], '19680909'],
  ['陈芳', '西河村', 6.2, 2, ['鱼塘'], '19810127'],
  ['杨明', '西河村', 10, 1, ['苹果'], '19590430'],
  ['赵磊', '南屯村', 18, 0, ['玉米'], '19770815'],
  ['黄丽', '南屯村', 9.5, 1, ['蔬菜', '瓜果'], '19840203'],
  ['周军', '南屯村', 25, 0, ['小麦', '玉米'], '19660718'],
  ['吴霞', '北岗村', 7.8, 1, ['葡萄'], '19790522'],
  ['孙海', '北岗村', 14, 0, ['小麦'], '19630111'],
  ['马红', '北岗村', 11.2, 2, ['鱼塘', '藕'], '19720929'],
] as const;

/** A valid ID number of the demo region for a birth date and sequence. */
function demoIdNumber(birth: string, sequence: number): string {
  const first17 = `370112${birth}${String(sequence).padStart(3, '0')}`;
  return `${first17}${idNumberCheckChar(first17)}`;
}

/** A card UID (8 hex digits) of a demo number: stable from run to run. */
const uid = (n: number) => (0x5a3c0000 + n * 0x1f3).toString(16).toUpperCase().padStart(8, '0');

/**
 * Card-swipe billing for the demo district (issue 20), so every billing screen shows something
 * real at first sight: the three crop classes and their tiers, twelve households in four villages
 * with their user cards (one lost and replaced), a setting, a test and a clearing card, each
 * seeded well controller's billing mode with its electricity-to-water coefficient history, this
 * year's water rights, and a few cash recharges at the cashier's desk through the ledger.
 */
export async function seedDemoBilling(
  sql: Sql,
  tenantId: string,
  userIds: readonly string[],
): Promise<void> {
  const [adminId, , cashierId] = userIds;
  const classIds: string[] = [];
  for (const priceClass of CLASSES) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_price_class (tenant_id, class_name, base_price, quota_per_mu, remark, created_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
      [
        tenantId,
        priceClass.name,
        priceClass.basePrice,
        priceClass.quotaPerMu,
        priceClass.remark,
        adminId,
      ],
    );
    classIds.push(rows[0]!.id);
    for (const tier of TIERS)
      await sql.query(
        `INSERT INTO billing_price_tier (tenant_id, price_class_id, over_quota_percent, multiplier, created_by)
         VALUES ($1, $2, $3, $4, $5)`,
        [tenantId, rows[0]!.id, tier.bound, tier.multiplier, adminId],
      );
  }

  const householdIds: string[] = [];
  for (const [index, [name, village, area, classIndex, crops, birth]] of HOUSEHOLDS.entries()) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_household (tenant_id, household_name, id_number, phone, village,
                                      irrigated_area, price_class_id, crops, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9) RETURNING id::text`,
      [
        tenantId,
        name,
        demoIdNumber(birth, 11 + index * 2),
        `+86139${String(53170000 + index * 1311).padStart(8, '0')}`,
        village,
        area,
        classIds[classIndex],
        crops,
        cashierId ?? adminId,
      ],
    );
    householdIds.push(rows[0]!.id);
  }

  // One user card per household, issued this spring; the third household's first card was lost
  // and replaced by a new one that carries its balance.
  const issued = (days: number) => `now() - interval '${days} days'`;
  const cardIds: string[] = [];
  for (const [index, householdId] of householdIds.entries()) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_card (tenant_id, card_no, card_type, household_id, card_state, issued_at, created_by)
       VALUES ($1, $2, 'user', $3, $4, ${issued(90 - index)}, $5) RETURNING id::text`,
      [
        tenantId,
        uid(index + 1),
        householdId,
        index === 2 ? 'replaced' : 'bound',
        cashierId ?? adminId,
      ],
    );
    cardIds.push(rows[0]!.id);
  }
  await sql.query(
    `INSERT INTO billing_card (tenant_id, card_no, card_type, household_id, card_state, issued_at,
                               replaces_card_id, remark, created_by)
     VALUES ($1, $2, 'user', $3, 'bound', ${issued(20)}, $4, '原卡遗失补办', $5)`,
    [tenantId, uid(100), householdIds[2], cardIds[2], cashierId ?? adminId],
  );
  for (const [n, type, remark] of [
    [101, 'setting', '设置卡：写入机井参数'],
    [102, 'test', '测试卡：累加水量测试'],
    [103, 'clearing', '清零卡：控制器清零'],
  ] as const)
    await sql.query(
      `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, issued_at, remark, created_by)
       VALUES ($1, $2, $3, 'registered', ${issued(100)}, $4, $5)`,
      [tenantId, uid(n), type, remark, adminId],
    );

  // The wells: by water meter, electricity converted to water, by kWh.
  const { rows: wells } = await sql.query<{ id: string; device_no: string }>(
    `SELECT d.id::text, d.device_no FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE d.tenant_id = $1 AND p.device_kind = 'card_controller' ORDER BY d.device_no`,
    [tenantId],
  );
  const modes = [
    { mode: 'm3', perKwh: null, perHour: null, remark: '超声波水表计量' },
    { mode: 'energyToWater', perKwh: null, perHour: null, remark: '以电折水，系数每年春灌前率定' },
    { mode: 'kwh', perKwh: 52, perHour: null, remark: '按电量计费（0.52元/kWh）' },
  ] as const;
  const year = new Date().getFullYear();
  for (const [index, well] of wells.entries()) {
    const setting = modes[index % modes.length]!;
    await sql.query(
      `INSERT INTO billing_well_setting (tenant_id, device_id, billing_mode, price_per_kwh, price_per_hour, remark, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [tenantId, well.id, setting.mode, setting.perKwh, setting.perHour, setting.remark, adminId],
    );
    // Each well's calibrations: last spring's and this spring's (volume ÷ energy measured).
    const calibrations = [
      { from: `${year - 1}-03-01`, volume: 245 + index * 12, energy: 100 },
      { from: `${year}-03-01`, volume: 262.5 + index * 10, energy: 105 },
    ];
    for (const calibration of calibrations)
      await sql.query(
        `INSERT INTO billing_water_coefficient (tenant_id, device_id, m3_per_kwh, valid_from,
                                                measured_volume, measured_energy, remark, created_by)
         VALUES ($1, $2, round(($3::numeric / $4::numeric), 4)::float8,
                 ($5::date)::timestamp AT TIME ZONE 'Asia/Shanghai', $3, $4, $6, $7)`,
        [
          tenantId,
          well.id,
          calibration.volume,
          calibration.energy,
          calibration.from,
          `${well.device_no} 春灌前率定`,
          adminId,
        ],
      );
  }

  // This year's water rights: area × class quota; one household was given more by the board.
  await sql.query(
    `INSERT INTO billing_water_right (tenant_id, household_id, year, quota_m3, remark, created_by)
     SELECT h.tenant_id, h.id, $2::int, round((h.irrigated_area * c.quota_per_mu)::numeric, 2)::float8,
            NULL, $3
       FROM billing_household h JOIN billing_price_class c ON c.id = h.price_class_id
      WHERE h.tenant_id = $1`,
    [tenantId, year, adminId],
  );
  await sql.query(
    `UPDATE billing_water_right SET quota_m3 = quota_m3 + 500, remark = '村委会调增（育苗用水）'
      WHERE tenant_id = $1 AND household_id = $2 AND year = $3`,
    [tenantId, householdIds[6], year],
  );

  // Cash recharges at the desk, through the ledger (balanced entries, as the desk posts them).
  if (!cashierId) return;
  const ledger = new LedgerService();
  const recharges = [20_000, 15_000, 30_000, 10_000, 5_000, 25_000, 12_000, 8_000];
  for (const [index, amountFen] of recharges.entries())
    await ledger.recharge(sql, {
      tenantId,
      idempotencyKey: `demo-recharge-${index + 1}`,
      householdId: householdIds[index]!,
      cardId: index === 2 ? undefined : cardIds[index],
      amountFen,
      method: 'cash',
      cashierId,
      createdBy: cashierId,
      memo: '演示充值',
    });
}

/**
 * Two weeks of irrigation at the wells (DEMO_CARD_SESSIONS; tests that play the controllers
 * themselves start without them), so consumption, swipe records, revenue, statistics and the
 * reconciliation open on real sessions: each well's controller uploads its records (run on
 * the card's balance) through the same decisions as a live upload (SessionRecords), priced by
 * the well's mode and the household's tiers, the controller charging what the server prices.
 */
export async function seedDemoCardSessions(sql: Sql, tenantId: string): Promise<void> {
  const deps = { ledger: new LedgerService(), pricing: new DbSessionPricing() };
  const { rows: wells } = await sql.query<{ id: string; device_no: string }>(
    `SELECT d.id::text, d.device_no FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE d.tenant_id = $1 AND p.device_kind = 'card_controller' ORDER BY d.device_no`,
    [tenantId],
  );
  // The households that recharged, on their bound user cards.
  const { rows: holders } = await sql.query<{ householdId: string; cardNo: string }>(
    `SELECT DISTINCT ON (h.id) h.id::text AS "householdId", c.card_no AS "cardNo"
       FROM billing_household h
       JOIN billing_card c ON c.household_id = h.id AND c.card_state = 'bound' AND c.card_type = 'user'
      WHERE h.tenant_id = $1
        AND EXISTS (SELECT 1 FROM billing_txn t WHERE t.household_id = h.id AND t.kind = 'recharge')
      ORDER BY h.id, c.id`,
    [tenantId],
  );
  if (holders.length === 0) return;
  const { rows } = await sql.query<{ code: string }>(
    'SELECT tenant_code AS code FROM tenant WHERE id = $1',
    [tenantId],
  );
  const day = 86_400_000;
  const start = Date.now() - 14 * day;
  for (const [w, well] of wells.entries()) {
    const device = {
      tenantId,
      tenantCode: rows[0]!.code,
      deviceId: well.id,
      deviceNo: well.device_no,
      productId: null,
    };
    const meters = { kwh: 1_200 + w * 310, m3: 3_100 + w * 820 };
    for (let n = 0; n < 6; n += 1) {
      const holder = holders[(w * 3 + n) % holders.length]!;
      // Mornings and evenings, 1–3 h, every other day or so.
      const startedAt = start + (n * 2 + (w % 2)) * day + (n % 2 ? 18 : 7) * 3_600_000;
      const hours = 1 + ((n + w) % 3);
      const kwh = 7.5 * hours + w;
      const m3 = Math.round(kwh * (2.5 + w * 0.1) * 1000) / 1000;
      const session = {
        tenantId,
        deviceId: well.id,
        householdId: holder.householdId,
        startedAt: new Date(startedAt),
        endedAt: new Date(startedAt + hours * 3_600_000),
        kwhStart: meters.kwh,
        kwhEnd: meters.kwh + kwh,
        m3Start: meters.m3,
        m3End: meters.m3 + m3,
      };
      // What the controller charged: the server's price (pricing only reads).
      const { amountFen } = await deps.pricing.price(sql, session);
      await SessionRecords.postWithin(sql, deps, {
        device,
        key: 'sessionEnd',
        ts: session.endedAt,
        params: {
          recordNo: n + 1,
          cardNo: holder.cardNo,
          startedAt: session.startedAt.getTime(),
          endedAt: session.endedAt.getTime(),
          kwhStart: session.kwhStart,
          kwhEnd: session.kwhEnd,
          m3Start: session.m3Start,
          m3End: session.m3End,
          endReason: n === 4 ? 'balanceExhausted' : 'cardRemoved',
          amountFen,
        },
      });
      meters.kwh += kwh;
      meters.m3 += m3;
    }
  }
}
