import { describe, expect, it } from 'vitest';
import { checkTelemetry, type AcceptedWindow } from './telemetry-check';
import { TEST_THING_MODEL } from './telemetry-test-fixtures';

const properties = new Map(TEST_THING_MODEL.properties.map((property) => [property.key, property]));
const now = new Date('2026-03-05T10:00:00Z');
const window: AcceptedWindow = {
  from: new Date(now.getTime() - 365 * 86_400_000),
  to: new Date(now.getTime() + 86_400_000),
};
const check = (payload: unknown) =>
  checkTelemetry(Buffer.from(JSON.stringify(payload)), properties, now, window);

describe('checkTelemetry', () => {
  it('stores good values, rounded to the precision the thing model keeps', () => {
    const result = check({ values: { flow: 0.1 + 0.2, running: false, valve: 1, note: 'ok' } });
    expect(result.values).toEqual([
      { key: 'flow', ts: now, value: 0.3, textValue: null },
      { key: 'running', ts: now, value: 0, textValue: null },
      { key: 'valve', ts: now, value: 1, textValue: null },
      { key: 'note', ts: now, value: null, textValue: 'ok' },
    ]);
    expect(result.lastProblem).toBeNull();
  });

  it('takes the reading time from ms or ISO, else the receive time', () => {
    const result = check([
      { ts: now.getTime() - 1000, values: { flow: 1 } },
      { ts: '2026-03-05T17:59:00+08:00', values: { flow: 2 } },
    ]);
    expect(result.values.map((value) => value.ts.toISOString())).toEqual([
      '2026-03-05T09:59:59.000Z',
      '2026-03-05T09:59:00.000Z',
    ]);
  });

  it('counts every refused value by its problem and remembers the last one', () => {
    const result = check([
      { values: { ghost: 1, flow: 'x', pressure: 3, valve: 2, running: 'no' } },
      { ts: now.getTime() + 2 * 86_400_000, values: { flow: 1, pressure: 1 } },
    ]);
    expect(result.values).toEqual([]);
    expect(result.problems).toEqual({
      unknownKeys: 1,
      wrongType: 2,
      outOfRange: 2,
      badPayload: 0,
      badTime: 2,
    });
    expect(result.lastProblem).toBe('badTime: pressure at 2026-03-07T10:00:00.000Z');
  });

  it('counts a payload that is not JSON, of the wrong shape or too large once', () => {
    for (const payload of [
      Buffer.from('{"values":'),
      Buffer.from('[]'),
      Buffer.from(JSON.stringify(Array.from({ length: 101 }, () => ({ values: {} })))),
      Buffer.alloc(65 * 1024, 32),
    ]) {
      const result = checkTelemetry(payload, properties, now, window);
      expect(result.values).toEqual([]);
      expect(result.problems.badPayload).toBe(1);
      expect(result.lastProblem).toMatch(/^badPayload: /);
    }
  });
});
