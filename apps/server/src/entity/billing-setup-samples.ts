import { idNumberCheckChar } from '@shuili/contract';
import type { EntitySample } from './entity-samples';

/** A valid resident ID number unique to the call: born 1970-01-01, region and sequence its digits. */
export function sampleIdNumber(digits: string): string {
  const own = digits.padStart(7, '0').slice(-7);
  const first17 = `11${own.slice(0, 4)}19700101${own.slice(4)}`;
  return `${first17}${idNumberCheckChar(first17)}`;
}

/** The billing set-up entities' samples (entity-samples.ts spreads them in). */
export const BILLING_SETUP_SAMPLES: Record<string, EntitySample> = {
  PriceClass: {
    search: 'className',
    create: (u) => ({ className: `Grain ${u.text}`, basePrice: 3, quotaPerMu: 300 }),
    update: () => ({ basePrice: 3.5 }),
  },
  PriceTier: {
    // A class of its own: its only tier, found by its class.
    search: 'priceClassId',
    create: async (_u, ctx) => ({
      priceClassId: await ctx.fresh('billing_price_class'),
      overQuotaPercent: 20,
      multiplier: 1.2,
    }),
    update: () => ({ multiplier: 1.25 }),
  },
  CardUser: {
    search: 'householdName',
    create: async (u, ctx) => ({
      householdName: `Household ${u.text}`,
      // Unique per tenant: the last digits of the call's own.
      idNumber: sampleIdNumber(u.digits),
      phone: '+8613800138000',
      village: 'Dongzhuang',
      irrigatedArea: 12.5,
      priceClassId: await ctx.any('billing_price_class'),
      crops: ['wheat', 'maize'],
      remark: 'Well 3',
    }),
    update: (u) => ({ householdName: `Household renamed ${u.text}` }),
  },
  Card: {
    search: 'cardNo',
    create: async (u, ctx) => ({
      cardNo: `C${u.digits}`.replace(/\D/g, 'A').slice(0, 20),
      cardType: 'user',
      householdId: await ctx.fresh('billing_household'),
      remark: 'Issued at the desk',
    }),
    update: () => ({ remark: 'Sleeve replaced' }),
  },
  WellBilling: {
    // One setting per well: a controller of its own, the only row a filter on it finds.
    search: 'deviceId',
    create: async (_u, ctx) => ({
      deviceId: await ctx.newDeviceOfKind('card_controller'),
      billingMode: 'kwh',
      pricePerKwh: 52.5,
    }),
    update: () => ({ pricePerHour: 300 }),
  },
  WaterCoefficient: {
    search: 'deviceId',
    create: async (_u, ctx) => ({
      deviceId: await ctx.newDeviceOfKind('card_controller'),
      coefficient: 2.5,
      validFrom: '2025-03-01T00:00:00.000Z',
      measuredVolume: 250,
      measuredEnergy: 100,
      remark: 'Spring calibration',
    }),
    update: () => ({ remark: 'Checked again' }),
  },
  WaterRight: {
    // A household of its own: one row per household and year.
    search: 'householdId',
    create: async (_u, ctx) => ({
      householdId: await ctx.fresh('billing_household'),
      year: 2026,
      quotaM3: 3750,
    }),
    update: () => ({ quotaM3: 4000 }),
  },
};
