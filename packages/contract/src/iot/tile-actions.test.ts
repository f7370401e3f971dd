import { describe, expect, it } from 'vitest';
import { checkCommandParams, paramProblem } from './command-check';
import { productOfKind } from './products';
import { tileActions } from './tile-actions';

const valve = productOfKind('irrigation_valve').thingModel;
const pumps = productOfKind('pump_station').thingModel;

describe('controls beside live values, from the thing model alone', () => {
  it("puts each valve's open and close beside its own state, the duration still asked", () => {
    const actions = tileActions(valve);
    expect(actions.get('valve3State')).toEqual([
      expect.objectContaining({
        command: 'openValve',
        fixed: { channel: 3 },
        ask: [expect.objectContaining({ key: 'durationMinutes' })],
      }),
      expect.objectContaining({ command: 'closeValve', fixed: { channel: 3 }, ask: [] }),
    ]);
    expect(actions.get('pressure')).toBeUndefined();
  });

  it("puts start and stop beside each pump's running state and frequency beside its own", () => {
    const actions = tileActions(pumps);
    expect(actions.get('pump2Running')?.map((one) => [one.command, one.fixed])).toEqual([
      ['startPump', { pumpNo: 2 }],
      ['stopPump', { pumpNo: 2 }],
    ]);
    expect(actions.get('pump1Frequency')?.map((one) => one.command)).toEqual(['setFrequency']);
  });

  it('offers no control for a key outside the parameter range, and setProperty for rw', () => {
    const model = {
      ...valve,
      properties: [...valve.properties, { ...valve.properties[0]!, key: 'valve9State' }],
    };
    expect(tileActions(model).get('valve9State')).toBeUndefined();
    const screen = tileActions(productOfKind('led_screen').thingModel);
    expect(screen.get('brightness')).toEqual([
      expect.objectContaining({ command: 'setProperty', fixed: {} }),
    ]);
  });

  it('offers nothing for a template whose numbers run together (ambiguous, and slow to match)', () => {
    const integer = (key: string) => ({
      key,
      name: { en: key, zh: key, tw: key },
      type: 'integer' as const,
      min: 0,
      max: 99,
    });
    const modelWith = (property: string) => ({
      ...valve,
      properties: [{ ...valve.properties[0]!, key: 'gate12' }],
      commands: [
        { ...valve.commands[0]!, key: 'move', params: [integer('a'), integer('b')], property },
      ],
    });
    // `gate{a}{b}` could read gate12 as 1 and 2 or as 12 and nothing; with a long key of digits
    // its pattern would backtrack for ages in every reader's page.
    expect(tileActions(modelWith('gate{a}{b}')).get('gate12')).toBeUndefined();
    expect(tileActions(modelWith('gate{a}2{b}')).get('gate12')).toBeUndefined();
    const separated = {
      ...modelWith('gate{a}x{b}'),
      properties: [{ ...valve.properties[0]!, key: 'gate1x2' }],
    };
    expect(tileActions(separated).get('gate1x2')?.[0]?.fixed).toEqual({ a: 1, b: 2 });
  });
});

describe('command parameters are checked, never guessed', () => {
  const channel = valve.commands[0]!.params[0]!;

  it('names the parameter and the rule it breaks', () => {
    expect(paramProblem(channel, 9)).toMatchObject({
      key: 'iot.paramOutOfRange',
      params: { param: 'channel', min: 1, max: 4 },
    });
    expect(paramProblem(channel, 'abc')).toMatchObject({ key: 'iot.paramWrongType' });
    expect(paramProblem(channel, 2.5)).toMatchObject({ key: 'iot.paramWrongType' });
    expect(paramProblem(channel, '')).toMatchObject({ key: 'iot.paramRequired' });
    expect(paramProblem(channel, 4)).toBeUndefined();
  });

  it('refuses an empty form and unknown parameters', () => {
    const { problems } = checkCommandParams(valve, 'openValve', { colour: 'red' });
    expect(problems.map((one) => one.field).sort()).toEqual([
      'params.channel',
      'params.colour',
      'params.durationMinutes',
    ]);
    expect(checkCommandParams(valve, 'openValve', { channel: 2, durationMinutes: 30 })).toEqual({
      problems: [],
      timeoutSeconds: 30,
    });
  });
});
