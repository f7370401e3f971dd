import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargeSession,
  coefficientAt,
  partVolumeUnits,
  priceByTiers,
  PricingError,
  type TierInput,
} from './pricing';

/** The county's tiers of RESEARCH.md: ≤ 20 % over 1.2×, ≤ 50 % 1.5×, above 2×. */
const TIERS: TierInput[] = [
  { overQuotaPercent: 20, multiplier: 1.2 },
  { overQuotaPercent: 50, multiplier: 1.5 },
  { overQuotaPercent: null, multiplier: 2 },
];

const units = (m3: number) => BigInt(Math.round(m3 * 1_000_000));

describe('the tier split of a session', () => {
  it('gives the RESEARCH vector: quota 100 m³, use 110 m³ → 100·p + 10·1.2p', () => {
    const p = 3; // grain: 3.00 fen/m³ = 0.03 yuan/m³
    const result = priceByTiers({
      usedBeforeM3: 0,
      volumeM3: 110,
      quotaM3: 100,
      basePrice: p,
      tiers: TIERS,
    });
    expect(result.parts.map((part) => [part.volumeM3, part.multiplier])).toEqual([
      [100, 1],
      [10, 1.2],
    ]);
    expect(result.exactFen).toBeCloseTo(100 * p + 10 * 1.2 * p, 10);
    expect(result.amountFen).toBe(336);
  });

  it('splits a session crossing a boundary at it, by the use before it in the year', () => {
    const result = priceByTiers({
      usedBeforeM3: 95,
      volumeM3: 30,
      quotaM3: 100,
      basePrice: 5,
      tiers: TIERS,
    });
    expect(result.parts.map((part) => [part.fromM3, part.toM3, part.multiplier])).toEqual([
      [95, 100, 1],
      [100, 120, 1.2],
      [120, 125, 1.5],
    ]);
    expect(result.exactFen).toBeCloseTo(5 * 5 + 20 * 6 + 5 * 7.5, 10);
  });

  it('goes on at the top multiplier past every bound, with or without an unbounded tier', () => {
    const open = priceByTiers({
      usedBeforeM3: 0,
      volumeM3: 300,
      quotaM3: 100,
      basePrice: 1,
      tiers: TIERS,
    });
    expect(open.parts.at(-1)).toMatchObject({ fromM3: 150, toM3: 300, multiplier: 2 });
    const bounded = priceByTiers({
      usedBeforeM3: 0,
      volumeM3: 300,
      quotaM3: 100,
      basePrice: 1,
      tiers: TIERS.slice(0, 2),
    });
    expect(bounded.parts.at(-1)).toMatchObject({ fromM3: 120, toM3: 300, multiplier: 1.5 });
  });

  it('charges the base price throughout without a quota, and only above it with quota 0', () => {
    expect(
      priceByTiers({ usedBeforeM3: 0, volumeM3: 10, quotaM3: null, basePrice: 3, tiers: TIERS })
        .amountFen,
    ).toBe(30);
    expect(
      priceByTiers({ usedBeforeM3: 0, volumeM3: 10, quotaM3: 0, basePrice: 3, tiers: TIERS })
        .parts[0],
    ).toMatchObject({ multiplier: 2, volumeM3: 10 });
  });

  it('rounds once per session, half up, from the exact sum of the parts', () => {
    // 0.5 m³ at 3 fen = 1.5 fen → 2 fen; 0.49 m³ → 1.47 → 1 fen.
    const at = (volumeM3: number) =>
      priceByTiers({ usedBeforeM3: 0, volumeM3, quotaM3: 100, basePrice: 3, tiers: TIERS });
    expect(at(0.5).amountFen).toBe(2);
    expect(at(0.49).amountFen).toBe(1);
    // Rounded one by one, 0.5 and 0.6 fen would make 1 + 1 = 2; the session's 1.1 → 1.
    const crossing = priceByTiers({
      usedBeforeM3: 99.9,
      volumeM3: 0.2,
      quotaM3: 100,
      basePrice: 5,
      tiers: TIERS,
    });
    expect(crossing.parts.map((part) => part.exactFen)).toEqual([0.5, 0.6]);
    expect(crossing.amountFen).toBe(1);
  });

  it('refuses tiers whose multipliers decrease or fall below 1', () => {
    const bad = (tiers: TierInput[]) => () =>
      priceByTiers({ usedBeforeM3: 0, volumeM3: 1, quotaM3: 1, basePrice: 1, tiers });
    expect(bad([{ overQuotaPercent: 20, multiplier: 0.9 }])).toThrow(RangeError);
    expect(
      bad([
        { overQuotaPercent: 20, multiplier: 1.5 },
        { overQuotaPercent: 50, multiplier: 1.2 },
      ]),
    ).toThrow(RangeError);
  });

  // Random staircases: bounds 1–300 %, multipliers non-decreasing from 1 to 5.
  const tiersArb = fc
    .array(
      fc.record({
        bound: fc.integer({ min: 1, max: 30_000 }),
        step: fc.integer({ min: 0, max: 100 }),
      }),
      { maxLength: 4 },
    )
    .chain((steps) =>
      fc.boolean().map((open) => {
        const bounds = [...new Set(steps.map((s) => s.bound))].sort((a, b) => a - b);
        let multiplier = 100;
        const tiers: TierInput[] = bounds.map((bound, index) => {
          multiplier += steps[index]!.step;
          return { overQuotaPercent: bound / 100, multiplier: multiplier / 100 };
        });
        if (open) tiers.push({ overQuotaPercent: null, multiplier: (multiplier + 10) / 100 });
        return tiers;
      }),
    );
  const m3 = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100);
  const caseArb = fc.record({
    used: m3(5000),
    volume: m3(2000),
    extra: m3(500),
    quota: fc.option(m3(3000), { nil: null }),
    price: fc.integer({ min: 0, max: 2000 }).map((n) => n / 100),
    tiers: tiersArb,
  });

  it('holds for hundreds of random cases: parts add up exactly, the amount is continuous and never decreases', () => {
    fc.assert(
      fc.property(caseArb, ({ used, volume, extra, quota, price, tiers }) => {
        const at = (volumeM3: number, usedBeforeM3 = used) =>
          priceByTiers({ usedBeforeM3, volumeM3, quotaM3: quota, basePrice: price, tiers });
        const result = at(volume);
        // The parts cover the session exactly, one after the other, without gaps.
        const sum = result.parts.reduce((total, part) => total + partVolumeUnits(part), 0n);
        expect(sum).toBe(units(volume));
        for (let i = 1; i < result.parts.length; i++)
          expect(result.parts[i]!.fromM3).toBe(result.parts[i - 1]!.toM3);
        // Never decreasing in the volume (exact and rounded).
        const more = at(volume + extra);
        expect(more.exactFen).toBeGreaterThanOrEqual(result.exactFen - 1e-9);
        expect(more.amountFen).toBeGreaterThanOrEqual(result.amountFen);
        // Continuous: 1 L more costs at most 1 L at the top price.
        const top = Math.max(1, ...tiers.map((tier) => tier.multiplier));
        expect(at(volume + 0.001).exactFen - result.exactFen).toBeLessThanOrEqual(
          0.001 * price * top + 1e-9,
        );
        // A session split in two consecutive ones costs exactly the same (before rounding).
        const first = at(volume);
        const second = at(extra, used + volume);
        expect(first.exactFen + second.exactFen).toBeCloseTo(more.exactFen, 6);
        // One rounding, half up, of the exact sum.
        expect(Math.abs(result.amountFen - result.exactFen)).toBeLessThanOrEqual(0.5 + 1e-9);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the charge of a session by its well billing mode', () => {
  const times = { startedAt: '2026-05-01T08:00:00Z', endedAt: '2026-05-01T09:30:00Z' };

  it('by kWh: energy × price per kWh, rounded once', () => {
    const charge = chargeSession({ mode: 'kwh', ...times, energyKwh: 12.35, pricePerKwh: 52.5 });
    expect(charge.exactFen).toBeCloseTo(648.375, 9);
    expect(charge.amountFen).toBe(648);
    expect(charge.billedVolumeM3).toBe(0);
  });

  it('by time: hours to the second × price per hour', () => {
    const charge = chargeSession({ mode: 'time', ...times, pricePerHour: 300 });
    expect(charge.amountFen).toBe(450);
    expect(() => chargeSession({ mode: 'time', ...times })).toThrow(PricingError);
  });

  it('by m³: the household tiered price', () => {
    const charge = chargeSession({
      mode: 'm3',
      ...times,
      volumeM3: 110,
      usedBeforeM3: 0,
      quotaM3: 100,
      basePrice: 3,
      tiers: TIERS,
    });
    expect(charge.amountFen).toBe(336);
    expect(charge.billedVolumeM3).toBe(110);
  });

  it('electricity to water: kWh × the coefficient valid at the start, then tiers; a new coefficient applies from its date on', () => {
    const coefficients = [
      { coefficient: 2.5, validFrom: '2026-03-01T00:00:00Z' },
      { coefficient: 2.8125, validFrom: '2026-06-01T00:00:00Z' },
    ];
    const before = chargeSession({
      mode: 'energyToWater',
      ...times,
      energyKwh: 40,
      coefficients,
      usedBeforeM3: 0,
      quotaM3: 100,
      basePrice: 3,
      tiers: TIERS,
    });
    expect(before.coefficient?.coefficient).toBe(2.5);
    expect(before.billedVolumeM3).toBe(100);
    expect(before.amountFen).toBe(300);
    const after = chargeSession({
      mode: 'energyToWater',
      startedAt: '2026-06-01T00:00:00Z',
      endedAt: '2026-06-01T01:00:00Z',
      energyKwh: 40,
      coefficients,
      usedBeforeM3: 0,
      quotaM3: 100,
      basePrice: 3,
      tiers: TIERS,
    });
    expect(after.coefficient?.coefficient).toBe(2.8125);
    expect(after.billedVolumeM3).toBe(112.5);
    // 100 m³ at 3 + 12.5 m³ at 3.6 = 345 fen.
    expect(after.amountFen).toBe(345);
    expect(() =>
      chargeSession({
        mode: 'energyToWater',
        startedAt: '2026-01-01T00:00:00Z',
        endedAt: '2026-01-01T01:00:00Z',
        energyKwh: 1,
        coefficients,
      }),
    ).toThrow(PricingError);
  });

  it('finds the coefficient started last at or before a time', () => {
    const history = [
      { coefficient: 1, validFrom: '2026-01-01T00:00:00Z' },
      { coefficient: 3, validFrom: '2026-09-01T00:00:00Z' },
      { coefficient: 2, validFrom: '2026-05-01T00:00:00Z' },
    ];
    expect(coefficientAt(history, '2026-04-30T23:59:59Z')?.coefficient).toBe(1);
    expect(coefficientAt(history, '2026-05-01T00:00:00Z')?.coefficient).toBe(2);
    expect(coefficientAt(history, '2027-01-01T00:00:00Z')?.coefficient).toBe(3);
    expect(coefficientAt(history, '2025-12-31T00:00:00Z')).toBeUndefined();
  });
});
