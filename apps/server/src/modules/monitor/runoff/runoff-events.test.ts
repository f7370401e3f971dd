import { describe, expect, it } from 'vitest';
import { detectRunoffEvents, type Reading } from './runoff-events';

const MIN = 60_000;
const PLOT = {
  area: 100,
  startFlow: 0.005,
  quietMs: 30 * MIN,
  rainLeadMs: 60 * MIN,
  flowScale: 0.001, // L/s
  concentrationScale: 1,
};
/** Flows (L/s) every 5 minutes from t = 0. */
const every5 = (flows: number[]): Reading[] =>
  flows.map((value, i) => ({ at: i * 5 * MIN, value }));

describe('runoff events cut from a plot’s flow', () => {
  it('keeps a lull shorter than the quiet time inside the event', () => {
    const flow = every5([0, 0.1, 0, 0, 0.2, 0, 0, 0, 0, 0, 0, 0, 0]);
    const [event, ...more] = detectRunoffEvents(flow, [], [], PLOT, 13 * 5 * MIN);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ startAt: 5 * MIN, endAt: 25 * MIN, ongoing: false });
    // (0.05 + 0 + 0.1 + 0.1) L/s × 300 s = 75 L.
    expect(event!.runoffVolume).toBeCloseTo(0.075, 10);
    expect(event!.runoffCoefficient).toBeNull();
  });

  it('splits flows apart by more than the quiet time into two events', () => {
    const flow = every5([0.1, 0, 0, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0, 0, 0]);
    const events = detectRunoffEvents(flow, [], [], PLOT, 15 * 5 * MIN);
    expect(events.map((event) => [event.startAt, event.endAt])).toEqual([
      [0, 5 * MIN],
      [35 * MIN, 40 * MIN],
    ]);
  });

  it('leaves an event still flowing, or not quiet long enough, ongoing', () => {
    const rising = detectRunoffEvents(every5([0, 0.1, 0.2]), [], [], PLOT, 10 * MIN);
    expect(rising).toMatchObject([{ startAt: 5 * MIN, endAt: null, ongoing: true }]);
    const falling = detectRunoffEvents(every5([0.1, 0]), [], [], PLOT, 20 * MIN);
    expect(falling[0]!.ongoing).toBe(true);
    // A plot gone silent while flowing ends at its last reading once the quiet time passed.
    const silent = detectRunoffEvents(every5([0.1, 0.2]), [], [], PLOT, 60 * MIN);
    expect(silent).toMatchObject([{ startAt: 0, endAt: 5 * MIN, ongoing: false }]);
  });

  it('counts the rain from the lead time before the start to the end', () => {
    const flow = every5([0, 0.1, 0, 0, 0, 0, 0, 0, 0]);
    const rain = [
      { at: -70 * MIN, value: 4 }, // before the lead time: not this event's
      { at: -30 * MIN, value: 2 },
      { at: 5 * MIN, value: 1.5 },
      { at: 40 * MIN, value: 3 }, // after the end
    ];
    const [event] = detectRunoffEvents(flow, rain, [], PLOT, 40 * MIN);
    expect(event!.rainfall).toBe(3.5);
  });
});
