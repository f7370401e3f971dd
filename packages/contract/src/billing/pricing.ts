/**
 * Pricing of card-swipe irrigation sessions (RESEARCH.md "Card-swipe"), shared by the server
 * (posting a session's charge) and the console (showing what a session will cost).
 *
 * Units and exactness. Money is integer fen; a price is fen with up to 2 decimals (3.00 fen/m³ =
 * 0.03 yuan/m³) and a multiplier has up to 2 decimals. Internally every quantity is an integer:
 * volumes in µm³ (1 mL: a kWh to the hundredth times a coefficient to the ten-thousandth is exact
 * there), energy in hundredths of a kWh, prices in hundredths of a fen, multipliers in hundredths;
 * products are bigints. Each part of a session carries its exact amount; the session's amount
 * is rounded ONCE, half up, to integer fen from the exact sum of its parts (never the parts one
 * by one, so rounding never adds up across parts). Rounding is monotone, so a larger session
 * never costs less.
 *
 * Tiers (agricultural water price reform): within the household's yearly quota the base price;
 * above it each tier up to `overQuotaPercent` over the quota (null: no upper bound) at
 * `multiplier` × base. Tiers apply to the household's cumulative use in the year, so a session
 * crossing a boundary is split at it; the parts add up exactly to the session's volume and the
 * charge of one session equals that of any split of it into consecutive sessions.
 */

export interface TierInput {
  /** Upper bound of the tier, % over the quota (20 = up to 120 % of the quota); null: none. */
  overQuotaPercent: number | null;
  /** Multiple of the base price, ≥ 1, non-decreasing from tier to tier. */
  multiplier: number;
}

export interface TieredPriceInput {
  /** The household's use in the year before this session, m³. */
  usedBeforeM3: number;
  /** This session's volume, m³. */
  volumeM3: number;
  /** The household's quota for the year, m³; null: no quota, the base price throughout. */
  quotaM3: number | null;
  /** Base price within the quota, fen per m³ (2 decimals). */
  basePrice: number;
  tiers: readonly TierInput[];
}

/** One piece of a session at one price. */
export interface TierPart {
  /** 0: within the quota; 1, 2, …: the tiers above it in order. */
  tier: number;
  multiplier: number;
  /** The household's cumulative use in the year where the piece starts and ends, m³. */
  fromM3: number;
  toM3: number;
  volumeM3: number;
  /** Fen per m³ (base × multiplier). */
  unitPrice: number;
  /** Exact, not rounded (fen). */
  exactFen: number;
}

export interface PriceResult {
  parts: TierPart[];
  /** Exact sum of the parts (fen, not rounded). */
  exactFen: number;
  /** What is charged: the exact sum rounded half up to integer fen. */
  amountFen: number;
}

const VOLUME_UNITS = 1_000_000; // µm³ per m³
const PRICE_UNITS = 100; // hundredths of a fen
const MULTIPLIER_UNITS = 100;
const ENERGY_UNITS = 100; // hundredths of a kWh
const COEFFICIENT_UNITS = 10_000;

/** A non-negative decimal as an integer count of `units` (rounded to the unit). */
function toUnits(value: number, units: number, name: string): bigint {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be ≥ 0: ${value}`);
  return BigInt(Math.round(value * units));
}

/** num / den rounded half up (both ≥ 0). */
export function roundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

const ratio = (num: bigint, den: bigint) => Number(num) / Number(den);

/** Tiers by bound, unbounded last; refused when a multiplier is below 1 or decreases. */
export function orderedTiers(tiers: readonly TierInput[]): TierInput[] {
  const sorted = [...tiers].sort(
    (a, b) =>
      (a.overQuotaPercent ?? Number.POSITIVE_INFINITY) -
      (b.overQuotaPercent ?? Number.POSITIVE_INFINITY),
  );
  let previous = 1;
  for (const tier of sorted) {
    if (!(tier.multiplier >= previous))
      throw new RangeError(`tier multipliers must be ≥ 1 and non-decreasing: ${tier.multiplier}`);
    previous = tier.multiplier;
  }
  if (sorted.filter((tier) => tier.overQuotaPercent === null).length > 1)
    throw new RangeError('at most one tier without upper bound');
  return sorted;
}

interface Band {
  tier: number;
  multiplier: number;
  /** Cumulative use where the band starts and ends, µm³ (end undefined: no end). */
  from: bigint;
  to: bigint | undefined;
}

/**
 * The price bands over the year's cumulative use: the quota at 1×, then each tier up to its
 * bound (quota × (1 + bound %), rounded half up to the µm³), the last one without end (past the
 * last bounded tier its multiplier goes on). Contiguous by construction: each band starts where
 * the previous one ends, so the charge is continuous in the volume.
 */
function bands(quotaM3: number | null, tiers: readonly TierInput[]): Band[] {
  if (quotaM3 === null) return [{ tier: 0, multiplier: 1, from: 0n, to: undefined }];
  const quota = toUnits(quotaM3, VOLUME_UNITS, 'quotaM3');
  const ordered = orderedTiers(tiers);
  const result: Band[] = [{ tier: 0, multiplier: 1, from: 0n, to: quota }];
  let start = quota;
  for (const [index, tier] of ordered.entries()) {
    let end: bigint | undefined;
    if (tier.overQuotaPercent !== null) {
      const percent = toUnits(tier.overQuotaPercent, 100, 'overQuotaPercent'); // hundredths of a %
      end = roundHalfUp(quota * (10_000n + percent), 10_000n);
      if (end < start) end = start;
    }
    result.push({ tier: index + 1, multiplier: tier.multiplier, from: start, to: end });
    if (end === undefined) return result;
    start = end;
  }
  // No unbounded tier: the last one's price goes on.
  const last = result[result.length - 1]!;
  last.to = undefined;
  return result;
}

/**
 * Splits a session over the price bands by the household's use before it in the year and
 * prices each piece; the amount is the exact total rounded once, half up, to integer fen.
 */
export function priceByTiers(input: TieredPriceInput): PriceResult {
  const before = toUnits(input.usedBeforeM3, VOLUME_UNITS, 'usedBeforeM3');
  const volume = toUnits(input.volumeM3, VOLUME_UNITS, 'volumeM3');
  const base = toUnits(input.basePrice, PRICE_UNITS, 'basePrice');
  const end = before + volume;
  const parts: TierPart[] = [];
  // Exact amount in fen × 1e-10 (µm³ × hundredths of a fen × hundredths of a multiple).
  const den = BigInt(VOLUME_UNITS * PRICE_UNITS * MULTIPLIER_UNITS);
  let total = 0n;
  for (const band of bands(input.quotaM3, input.tiers)) {
    const from = before > band.from ? before : band.from;
    const to = band.to === undefined || end < band.to ? end : band.to;
    if (to <= from) continue;
    const multiplier = toUnits(band.multiplier, MULTIPLIER_UNITS, 'multiplier');
    const exact = (to - from) * base * multiplier;
    total += exact;
    parts.push({
      tier: band.tier,
      multiplier: band.multiplier,
      fromM3: ratio(from, BigInt(VOLUME_UNITS)),
      toM3: ratio(to, BigInt(VOLUME_UNITS)),
      volumeM3: ratio(to - from, BigInt(VOLUME_UNITS)),
      unitPrice: ratio(base * multiplier, BigInt(PRICE_UNITS * MULTIPLIER_UNITS)),
      exactFen: ratio(exact, den),
    });
  }
  return { parts, exactFen: ratio(total, den), amountFen: Number(roundHalfUp(total, den)) };
}

/** Each part's volume in µm³: they add up exactly to the session's (tests and checks). */
export const partVolumeUnits = (part: TierPart): bigint =>
  BigInt(Math.round(part.volumeM3 * VOLUME_UNITS));

export type ChargeMode = 'm3' | 'kwh' | 'time' | 'energyToWater';

/** A well's coefficient (m³ per kWh) from its start on. */
export interface CoefficientInput {
  coefficient: number;
  validFrom: string | Date;
}

/**
 * The coefficient valid at a time: the newest one started at or before it (a new coefficient
 * applies from its date on); undefined when none had started.
 */
export function coefficientAt(
  history: readonly CoefficientInput[],
  at: string | Date,
): CoefficientInput | undefined {
  const time = new Date(at).getTime();
  let best: CoefficientInput | undefined;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const entry of history) {
    const from = new Date(entry.validFrom).getTime();
    if (from <= time && from > bestTime) {
      best = entry;
      bestTime = from;
    }
  }
  return best;
}

export interface SessionChargeInput {
  mode: ChargeMode;
  startedAt: string | Date;
  endedAt: string | Date;
  /** Metered volume (m³; modes m3), energy (kWh; modes kwh and energyToWater). */
  volumeM3?: number;
  energyKwh?: number;
  /** The well's prices in fen (2 decimals) for modes kwh and time. */
  pricePerKwh?: number | null;
  pricePerHour?: number | null;
  /** The well's coefficient history (mode energyToWater). */
  coefficients?: readonly CoefficientInput[];
  /** The household's tiered price and use (modes m3 and energyToWater). */
  usedBeforeM3?: number;
  quotaM3?: number | null;
  basePrice?: number;
  tiers?: readonly TierInput[];
}

export interface SessionCharge extends PriceResult {
  mode: ChargeMode;
  /** The volume the household's water right is charged with (m³; 0 for kwh and time). */
  billedVolumeM3: number;
  /** The coefficient used (energyToWater). */
  coefficient?: CoefficientInput;
}

/** Why a session cannot be priced (the server answers it as a 400/409 naming the setting). */
export class PricingError extends Error {
  constructor(readonly reason: 'noCoefficient' | 'noPrice' | 'badInterval') {
    super(reason);
  }
}

/** A single-piece charge (kwh, time): exact num/den fen, rounded once. */
function flat(mode: ChargeMode, num: bigint, den: bigint, unitPrice: number): SessionCharge {
  return {
    mode,
    billedVolumeM3: 0,
    parts: [
      {
        tier: 0,
        multiplier: 1,
        fromM3: 0,
        toM3: 0,
        volumeM3: 0,
        unitPrice,
        exactFen: ratio(num, den),
      },
    ],
    exactFen: ratio(num, den),
    amountFen: Number(roundHalfUp(num, den)),
  };
}

/**
 * A session's charge by its well's billing mode: kWh × price per kWh; hours (to the second) ×
 * price per hour; m³ at the household's tiered price; or kWh × the coefficient valid at the
 * session's start, then the tiered price. One rounding per session, half up.
 */
export function chargeSession(input: SessionChargeInput): SessionCharge {
  const tiered = (volumeM3: number): PriceResult =>
    priceByTiers({
      usedBeforeM3: input.usedBeforeM3 ?? 0,
      volumeM3,
      quotaM3: input.quotaM3 ?? null,
      basePrice: input.basePrice ?? 0,
      tiers: input.tiers ?? [],
    });
  switch (input.mode) {
    case 'kwh': {
      if (input.pricePerKwh === null || input.pricePerKwh === undefined)
        throw new PricingError('noPrice');
      const energy = toUnits(input.energyKwh ?? 0, ENERGY_UNITS, 'energyKwh');
      const price = toUnits(input.pricePerKwh, PRICE_UNITS, 'pricePerKwh');
      return flat('kwh', energy * price, BigInt(ENERGY_UNITS * PRICE_UNITS), input.pricePerKwh);
    }
    case 'time': {
      if (input.pricePerHour === null || input.pricePerHour === undefined)
        throw new PricingError('noPrice');
      const ms = new Date(input.endedAt).getTime() - new Date(input.startedAt).getTime();
      if (!Number.isFinite(ms) || ms < 0) throw new PricingError('badInterval');
      const seconds = BigInt(Math.round(ms / 1000));
      const price = toUnits(input.pricePerHour, PRICE_UNITS, 'pricePerHour');
      return flat('time', seconds * price, BigInt(3600 * PRICE_UNITS), input.pricePerHour);
    }
    case 'm3': {
      const volume = input.volumeM3 ?? 0;
      return { mode: 'm3', billedVolumeM3: volume, ...tiered(volume) };
    }
    case 'energyToWater': {
      const coefficient = coefficientAt(input.coefficients ?? [], input.startedAt);
      if (!coefficient) throw new PricingError('noCoefficient');
      // kWh to the hundredth × m³/kWh to the ten-thousandth: exact in µm³.
      const energy = toUnits(input.energyKwh ?? 0, ENERGY_UNITS, 'energyKwh');
      const perKwh = toUnits(coefficient.coefficient, COEFFICIENT_UNITS, 'coefficient');
      const volume = ratio(energy * perKwh, BigInt(ENERGY_UNITS * COEFFICIENT_UNITS));
      return { mode: 'energyToWater', billedVolumeM3: volume, coefficient, ...tiered(volume) };
    }
  }
}
