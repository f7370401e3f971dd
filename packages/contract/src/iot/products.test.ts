import { describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from '../entities/iot/iot-dicts';
import { FACTORS, findFactor } from './factors';
import { PRODUCTS } from './products';
import { THING_KEY_PATTERN, thingModelSchema } from './thing-model';

describe('seeded IoT catalogue', () => {
  it('factor codes are unique thing keys with a sane range', () => {
    expect(new Set(FACTORS.map((factor) => factor.code)).size).toBe(FACTORS.length);
    for (const factor of FACTORS) {
      expect(factor.code).toMatch(THING_KEY_PATTERN);
      expect(factor.min, factor.code).toBeLessThan(factor.max);
      expect(factor.precision).toBeGreaterThanOrEqual(0);
      expect(factor.precision).toBeLessThanOrEqual(6);
    }
  });

  it('has one product per device kind with a unique serial number', () => {
    expect(PRODUCTS.map((product) => product.kind).sort()).toEqual([...DEVICE_KINDS].sort());
    expect(new Set(PRODUCTS.map((product) => product.serialNo)).size).toBe(PRODUCTS.length);
  });

  it.each(PRODUCTS.map((product) => [product.serialNo, product] as const))(
    '%s: its thing model is valid, and its properties name known factors in range',
    (_serialNo, product) => {
      const parsed = thingModelSchema.safeParse(product.thingModel);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(product.thingModel.properties.length).toBeGreaterThan(0);
      for (const property of product.thingModel.properties) {
        if (!property.factor) continue;
        const factor = findFactor(property.factor);
        expect(factor, `${property.key}: factor ${property.factor}`).toBeDefined();
        // A property may narrow its factor's range, never widen it.
        if (property.min !== undefined) expect(property.min).toBeGreaterThanOrEqual(factor!.min);
        if (property.max !== undefined) expect(property.max).toBeLessThanOrEqual(factor!.max);
      }
    },
  );
});
