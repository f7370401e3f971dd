import { describe, expect, it } from 'vitest';
import {
  checkThingValue,
  DEFAULT_REPORT_INTERVAL_SECONDS,
  reportIntervalOf,
  thingModelSchema,
  type ThingParam,
} from './thing-model';
import { deviceIdentity, deviceTopic, parseDeviceIdentity, parseDeviceTopic } from './topics';

const name = { en: 'Level', zh: '水位', tw: '水位' };
const level: ThingParam = { key: 'waterLevel', name, type: 'number', unit: 'm', min: 0, max: 20 };

describe('thing values', () => {
  it('accepts numbers in range and refuses the rest with the reason', () => {
    expect(checkThingValue(level, 3.25)).toEqual({ ok: true, number: 3.25, text: null });
    expect(checkThingValue(level, 21)).toEqual({ ok: false, problem: 'outOfRange' });
    expect(checkThingValue(level, '3')).toEqual({ ok: false, problem: 'wrongType' });
    expect(checkThingValue(level, Number.NaN)).toEqual({ ok: false, problem: 'wrongType' });
  });

  it('stores booleans and enums as numbers and refuses unknown enum values', () => {
    const valve: ThingParam = {
      key: 'valve1',
      name,
      type: 'enum',
      options: [
        { value: 0, label: name },
        { value: 1, label: name },
      ],
    };
    expect(checkThingValue(valve, 1)).toEqual({ ok: true, number: 1, text: null });
    expect(checkThingValue(valve, 2)).toEqual({ ok: false, problem: 'outOfRange' });
    expect(checkThingValue({ key: 'pump', name, type: 'boolean' }, true)).toEqual({
      ok: true,
      number: 1,
      text: null,
    });
    expect(checkThingValue({ key: 'n', name, type: 'integer' }, 1.5)).toEqual({
      ok: false,
      problem: 'wrongType',
    });
  });
});

describe('thing model schema', () => {
  it('refuses duplicate keys, inverted ranges and enums without options', () => {
    const property = { ...level, access: 'r' as const };
    expect(
      thingModelSchema.safeParse({ properties: [property, property], events: [], commands: [] })
        .success,
    ).toBe(false);
    expect(
      thingModelSchema.safeParse({
        properties: [{ ...property, min: 5, max: 1 }],
        events: [],
        commands: [],
      }).success,
    ).toBe(false);
    expect(
      thingModelSchema.safeParse({
        properties: [{ ...property, type: 'enum' }],
        events: [],
        commands: [],
      }).success,
    ).toBe(false);
    expect(
      thingModelSchema.safeParse({ properties: [property], events: [], commands: [] }).success,
    ).toBe(true);
  });
});

describe('reporting interval', () => {
  const empty = { properties: [], events: [], commands: [] };
  it('is optional, whole seconds up to a day, with a default', () => {
    expect(reportIntervalOf(thingModelSchema.parse(empty))).toBe(DEFAULT_REPORT_INTERVAL_SECONDS);
    expect(reportIntervalOf(thingModelSchema.parse({ ...empty, reportIntervalSeconds: 60 }))).toBe(
      60,
    );
    for (const bad of [0, 1.5, 86_401, '60'])
      expect(thingModelSchema.safeParse({ ...empty, reportIntervalSeconds: bad }).success).toBe(
        false,
      );
  });
});

describe('topics', () => {
  it('round-trips device topics and identities and refuses wildcards', () => {
    expect(parseDeviceTopic(deviceTopic('demo', 'V-001', 'cmd/ack'))).toEqual({
      tenantCode: 'demo',
      deviceNo: 'V-001',
      channel: 'cmd/ack',
    });
    expect(parseDeviceTopic('t/demo/d/+/telemetry')).toBeUndefined();
    expect(parseDeviceTopic('t/demo/d/V-001/other')).toBeUndefined();
    expect(parseDeviceIdentity(deviceIdentity('demo', 'V-001'))).toEqual({
      tenantCode: 'demo',
      deviceNo: 'V-001',
    });
    expect(parseDeviceIdentity('web:demo:x')).toBeUndefined();
  });
});
