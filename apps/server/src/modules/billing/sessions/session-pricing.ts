import {
  chargeSession,
  coefficientAt,
  columnOf,
  waterCoefficientEntity,
  PricingError,
  type CoefficientInput,
  type ControllerBillingMode,
  type TierInput,
} from '@shuili/contract';
import { lockKey, type Sql } from '../../../db/database';
import type {
  MeteredSession,
  PricedSession,
  SessionPricing,
  WellTerms,
} from './session-pricing.types';

export { PricingError };

interface WellSetting {
  billingMode: ControllerBillingMode;
  pricePerKwh: number | null;
  pricePerHour: number | null;
}

interface HouseholdPrice {
  priceClassId: string | null;
  basePrice: number;
  quotaPerMu: number;
  irrigatedArea: number;
}

const num = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A well without a setting of its own charges by the meter's m³ (the household's price). */
async function wellSetting(sql: Sql, deviceId: string): Promise<WellSetting> {
  const { rows } = await sql.query<{
    billing_mode: ControllerBillingMode;
    price_per_kwh: unknown;
    price_per_hour: unknown;
  }>(
    `SELECT billing_mode, price_per_kwh, price_per_hour FROM billing_well_setting
      WHERE device_id = $1`,
    [deviceId],
  );
  const row = rows[0];
  return {
    billingMode: row?.billing_mode ?? 'm3',
    pricePerKwh: num(row?.price_per_kwh),
    pricePerHour: num(row?.price_per_hour),
  };
}

/** The coefficient's column, as its declaration names it. */
const COEFFICIENT = columnOf('coefficient', waterCoefficientEntity.fields['coefficient']!);

async function coefficients(sql: Sql, deviceId: string): Promise<CoefficientInput[]> {
  const { rows } = await sql.query<{ coefficient: unknown; valid_from: Date }>(
    `SELECT ${COEFFICIENT} AS coefficient, valid_from FROM billing_water_coefficient
      WHERE device_id = $1`,
    [deviceId],
  );
  return rows.map((row) => ({ coefficient: Number(row.coefficient), validFrom: row.valid_from }));
}

async function householdPrice(sql: Sql, householdId: string): Promise<HouseholdPrice> {
  const { rows } = await sql.query<{
    price_class_id: string | null;
    base_price: unknown;
    quota_per_mu: unknown;
    irrigated_area: unknown;
  }>(
    `SELECT h.price_class_id::text, c.base_price, c.quota_per_mu, h.irrigated_area
       FROM billing_household h LEFT JOIN billing_price_class c ON c.id = h.price_class_id
      WHERE h.id = $1`,
    [householdId],
  );
  const row = rows[0];
  return {
    priceClassId: row?.price_class_id ?? null,
    basePrice: num(row?.base_price) ?? 0,
    quotaPerMu: num(row?.quota_per_mu) ?? 0,
    irrigatedArea: num(row?.irrigated_area) ?? 0,
  };
}

async function tiersOf(sql: Sql, priceClassId: string | null): Promise<TierInput[]> {
  if (!priceClassId) return [];
  const { rows } = await sql.query<{ over_quota_percent: unknown; multiplier: unknown }>(
    `SELECT over_quota_percent, multiplier FROM billing_price_tier WHERE price_class_id = $1`,
    [priceClassId],
  );
  return rows.map((row) => ({
    overQuotaPercent: num(row.over_quota_percent),
    multiplier: Number(row.multiplier),
  }));
}

/** The year of a time in the tenant's time zone (sys_param timeZone, else Asia/Shanghai). */
async function yearOf(sql: Sql, at: Date): Promise<number> {
  const { rows } = await sql.query<{ param_value: string }>(
    `SELECT param_value FROM sys_param WHERE param_key = 'timeZone' LIMIT 1`,
  );
  let timeZone = rows[0]?.param_value || 'Asia/Shanghai';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    timeZone = 'Asia/Shanghai';
  }
  return Number(new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' }).format(at));
}

/** The household's quota for the year: its water right, else area × its class's quota per mu. */
async function quotaOf(
  sql: Sql,
  householdId: string,
  year: number,
  price: HouseholdPrice,
): Promise<number | null> {
  const { rows } = await sql.query<{ quota_m3: unknown }>(
    `SELECT quota_m3 FROM billing_water_right WHERE household_id = $1 AND year = $2`,
    [householdId, year],
  );
  const own = num(rows[0]?.quota_m3);
  if (own !== null) return own;
  return price.priceClassId ? price.irrigatedArea * price.quotaPerMu : null;
}

/**
 * Sessions priced with the water-set helper's pure functions (contract billing/pricing.ts) on
 * the tenant's settings: the well's billing mode and prices (billing_well_setting; m³ when it
 * has none), its coefficient history, the household's price class, tiers and quota for the year
 * of the session's start, and what the household drew before in that year.
 */
export class DbSessionPricing implements SessionPricing {
  async termsAt(
    sql: Sql,
    input: { tenantId: string; deviceId: string; householdId: string; at: Date },
  ): Promise<WellTerms> {
    const well = await wellSetting(sql, input.deviceId);
    if (well.billingMode === 'kwh' || well.billingMode === 'time') {
      const price = well.billingMode === 'kwh' ? well.pricePerKwh : well.pricePerHour;
      if (price === null) throw new PricingError('noPrice');
      return { billingMode: well.billingMode, unitPriceFen: price, m3PerKwh: null };
    }
    const { basePrice } = await householdPrice(sql, input.householdId);
    if (well.billingMode === 'm3')
      return { billingMode: 'm3', unitPriceFen: basePrice, m3PerKwh: null };
    const coefficient = coefficientAt(await coefficients(sql, input.deviceId), input.at);
    if (!coefficient) throw new PricingError('noCoefficient');
    return {
      billingMode: 'energyToWater',
      unitPriceFen: basePrice,
      m3PerKwh: coefficient.coefficient,
    };
  }

  async price(sql: Sql, session: MeteredSession): Promise<PricedSession> {
    // The household's use in the year is read and added to in turn: two sessions ending
    // together never both price from the same use (a tier boundary counted twice).
    await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [
      lockKey(`billing_household_use:${session.householdId}`),
    ]);
    const well = await wellSetting(sql, session.deviceId);
    const household = await householdPrice(sql, session.householdId);
    const year = await yearOf(sql, session.startedAt);
    const { rows } = await sql.query<{ used: number }>(
      `SELECT billing_water_used_m3($1, $2, $3) AS used`,
      [session.tenantId, session.householdId, year],
    );
    const energyKwh = Math.max(0, session.kwhEnd - session.kwhStart);
    const meterM3 = Math.max(0, session.m3End - session.m3Start);
    const history =
      well.billingMode === 'energyToWater' ? await coefficients(sql, session.deviceId) : [];
    const charge = chargeSession({
      mode: well.billingMode,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      volumeM3: meterM3,
      energyKwh,
      pricePerKwh: well.pricePerKwh,
      pricePerHour: well.pricePerHour,
      coefficients: history,
      usedBeforeM3: Number(rows[0]?.used ?? 0),
      quotaM3: await quotaOf(sql, session.householdId, year, household),
      basePrice: household.basePrice,
      tiers: await tiersOf(sql, household.priceClassId),
    });
    const unitPriceFen =
      well.billingMode === 'kwh'
        ? (well.pricePerKwh ?? 0)
        : well.billingMode === 'time'
          ? (well.pricePerHour ?? 0)
          : household.basePrice;
    return {
      billingMode: well.billingMode,
      unitPriceFen,
      m3PerKwh: charge.coefficient?.coefficient ?? null,
      // The water drawn: converted from energy for energyToWater, else the meter's (kWh and
      // time wells draw water against the quota too, though their price ignores it).
      volumeM3: well.billingMode === 'energyToWater' ? charge.billedVolumeM3 : meterM3,
      energyKwh,
      durationSeconds: Math.max(
        0,
        Math.round((session.endedAt.getTime() - session.startedAt.getTime()) / 1000),
      ),
      amountFen: charge.amountFen,
      tierParts: charge.parts,
    };
  }
}
