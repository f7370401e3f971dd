import { describe, expect, it } from 'vitest';
import { stepOpenings, type PlannedStep } from './rotation-plan';

const m = (deviceId: string, channel: number) => ({ deviceId, channel });

describe('a rotation step’s openings', () => {
  const steps: PlannedStep[] = [
    { members: [m('1', 1), m('1', 2)], minutes: 30 },
    { members: [m('1', 2), m('2', 1)], minutes: 20 },
    { members: [m('1', 2), m('2', 2)], minutes: 10 },
    { members: [m('1', 1)], minutes: 15 },
  ];

  it('opens a channel of consecutive groups once, for all their minutes', () => {
    expect(stepOpenings(steps, 0)).toEqual([
      { minutes: 30, members: [m('1', 1)] },
      { minutes: 60, members: [m('1', 2)] },
    ]);
  });

  it('leaves a channel carried on from the step before alone', () => {
    expect(stepOpenings(steps, 1)).toEqual([{ minutes: 20, members: [m('2', 1)] }]);
    expect(stepOpenings(steps, 2)).toEqual([{ minutes: 10, members: [m('2', 2)] }]);
  });

  it('opens a channel again when a step came between', () => {
    expect(stepOpenings(steps, 3)).toEqual([{ minutes: 15, members: [m('1', 1)] }]);
  });

  it('opens a channel listed twice in a step once, and nothing past the end', () => {
    expect(stepOpenings([{ members: [m('3', 1), m('3', 1)], minutes: 5 }], 0)).toEqual([
      { minutes: 5, members: [m('3', 1)] },
    ]);
    expect(stepOpenings(steps, 4)).toEqual([]);
  });
});
