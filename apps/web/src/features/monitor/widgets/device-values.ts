import type { ThingProperty } from '@shuili/contract';
import type { AreaDevice } from './widget-types';

/** The thing model's property of a key, if the device's product has it. */
export function propertyOf(device: AreaDevice, key: string): ThingProperty | undefined {
  return device.thingModel.properties.find((property) => property.key === key);
}

/** A live value as a number (enum codes and booleans included), or undefined when unknown. */
export function numberOf(device: AreaDevice, key: string): number | undefined {
  const value = device.values[key];
  if (value === null || value === undefined || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** When a live value was measured (ms), or undefined. */
export function timeOf(device: AreaDevice, key: string): number | undefined {
  const at = device.valueTimes[key];
  const ms = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The numbered instances of a repeated property (pump1Running, pump2Running ...; valve1State ...)
 * the product declares, in order: a station with three pumps shows three.
 */
export function numberedKeys(device: AreaDevice, pattern: RegExp): number[] {
  const numbers = new Set<number>();
  for (const property of device.thingModel.properties) {
    const match = pattern.exec(property.key);
    if (match?.[1]) numbers.add(Number(match[1]));
  }
  return [...numbers].sort((a, b) => a - b);
}

/** The declared range of a property, with a fallback for a model that leaves it open. */
export function rangeOf(
  device: AreaDevice,
  key: string,
  fallback: [number, number],
): [number, number] {
  const property = propertyOf(device, key);
  return [property?.min ?? fallback[0], property?.max ?? fallback[1]];
}
