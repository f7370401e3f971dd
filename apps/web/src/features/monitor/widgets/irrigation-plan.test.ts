import { describe, expect, it } from 'vitest';
import { planOf, timeAfter } from './irrigation-plan';

const groups = [
  {
    id: '1',
    groupName: 'North 1',
    zoneIdLabel: 'North',
    members: ['7:1', '7:3', '8:1'],
    status: 1,
  },
  { id: '2', groupName: 'North 2', members: ['8:2', '8:3'], status: 1 },
  { id: '3', groupName: 'Spare', members: ['7:4'], status: 0 },
];

describe('planOf', () => {
  it('finds the groups with a channel of the device, and its channels there', () => {
    const plan = planOf('7', groups, []);
    expect(plan.groups).toEqual([
      { id: '1', name: 'North 1', zone: 'North', channels: [1, 3], enabled: true },
      { id: '3', name: 'Spare', zone: null, channels: [4], enabled: false },
    ]);
    expect(planOf('70', groups, []).groups).toEqual([]);
  });

  it('finds the schedules stepping through those groups, with each step’s offset', () => {
    const plan = planOf('7', groups, [
      {
        id: '10',
        scheduleName: 'Morning',
        steps: ['2:30', '1:45', '3:15'],
        startTime: '06:00',
        daysOfWeek: ['1', '3'],
        nextRun: '2025-06-02T06:00:00+08:00',
        status: 1,
      },
      { id: '11', scheduleName: 'Other', steps: ['2:60'], startTime: '18:00' },
    ]);
    expect(plan.schedules).toEqual([
      {
        id: '10',
        name: 'Morning',
        startTime: '06:00',
        days: ['1', '3'],
        steps: [
          { groupId: '1', groupName: 'North 1', offsetMinutes: 30, minutes: 45 },
          { groupId: '3', groupName: 'Spare', offsetMinutes: 75, minutes: 15 },
        ],
        totalMinutes: 90,
        lastRun: null,
        nextRun: '2025-06-02T06:00:00+08:00',
        enabled: true,
      },
    ]);
  });
});

describe('timeAfter', () => {
  it('adds minutes to a time of day, wrapping past midnight', () => {
    expect(timeAfter('06:00', 90)).toBe('07:30');
    expect(timeAfter('23:30', 45)).toBe('00:15');
  });
});
