import { checkThingValue, PRODUCTS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { simulateHistory } from './history';
import type { DeviceKind } from './models/create-physics-model';

const HOUR = 3_600_000;
const TO = Date.UTC(2025, 6, 31, 12);
const FROM = TO - 10 * 24 * HOUR;
const KINDS: DeviceKind[] = [
  'irrigation_valve',
  'pump_station',
  'water_fertilizer',
  'soil_moisture',
  'weather_station',
  'sluice_gate',
];
const devices = KINDS.flatMap((kind) => [1, 2].map((n) => ({ id: `${kind}-${n}`, kind })));

describe('a district’s simulated history', () => {
  const history = simulateHistory({ devices, from: FROM, to: TO });

  it('has an hourly reading of every device, within its thing model', () => {
    for (const device of devices) {
      const readings = history.get(device.id)!;
      expect(readings.length, device.id).toBe(240);
      const model = PRODUCTS.find((product) => product.kind === device.kind)!.thingModel;
      for (const [index, reading] of readings.entries()) {
        expect(reading.ts).toBeGreaterThanOrEqual(FROM);
        expect(reading.ts).toBeLessThanOrEqual(TO);
        if (index > 0) expect(reading.ts - readings[index - 1]!.ts).toBe(HOUR);
        expect(Object.keys(reading.values).sort()).toEqual(
          model.properties.map((property) => property.key).sort(),
        );
        for (const property of model.properties)
          expect(
            checkThingValue(property, reading.values[property.key]),
            property.key,
          ).toMatchObject({ ok: true });
      }
    }
  });

  it('meters water as the pumps and valves run, and wets the soil of the valves’ fields', () => {
    for (const id of ['pump_station-1', 'irrigation_valve-1', 'irrigation_valve-2']) {
      const volumes = history
        .get(id)!
        .map((reading) => reading.values['cumulativeVolume'] as number);
      for (let i = 1; i < volumes.length; i++)
        expect(volumes[i]!).toBeGreaterThanOrEqual(volumes[i - 1]!);
      expect(volumes.at(-1)! - volumes[0]!, id).toBeGreaterThan(10);
    }
    // The soil of a valve's field gets wetter within the hours its valves are open.
    const valve = history.get('irrigation_valve-1')!;
    const soil = history.get('soil_moisture-1')!;
    const watered = valve.findIndex(
      (reading, i) => i > 0 && (reading.values['flow'] as number) > 0,
    );
    expect(watered).toBeGreaterThan(0);
    const before = soil[watered - 1]!.values['soilMoisture10'] as number;
    const after = Math.max(
      ...soil
        .slice(watered, watered + 4)
        .map((reading) => reading.values['soilMoisture10'] as number),
    );
    expect(after).toBeGreaterThan(before);
  });

  it('is the same history for the same seed', () => {
    const again = simulateHistory({
      devices: devices.slice(0, 3),
      from: FROM,
      to: FROM + 5 * HOUR,
    });
    const once = simulateHistory({ devices: devices.slice(0, 3), from: FROM, to: FROM + 5 * HOUR });
    expect(again).toEqual(once);
  });
});
