import { describe, expect, it } from 'vitest';
import { wateringBefore } from './soil-rule.processor';

describe('whether a soil rule was watering when its evaluation fired', () => {
  const fireAt = new Date('2026-07-06T06:00:00Z');
  const at = (minutes: number) => new Date(fireAt.getTime() + minutes * 60_000);

  it('is not, without holds', () => {
    expect(wateringBefore(undefined, fireAt, 90)).toBe(false);
  });

  it('is, when an earlier evaluation (10 minutes before) took the holds', () => {
    expect(wateringBefore(at(80), fireAt, 90)).toBe(true);
  });

  it('is not, when this evaluation took them and is being retried', () => {
    // Taken by the first attempt a few seconds after the fire time.
    expect(wateringBefore(new Date(at(90).getTime() + 4_000), fireAt, 90)).toBe(false);
    expect(wateringBefore(at(90), fireAt, 90)).toBe(false);
  });
});
