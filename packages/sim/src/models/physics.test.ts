import { describe, expect, it } from 'vitest';
import { createRandom } from '../random';
import { createEnvironment } from './environment';
import { IrrigationValveModel } from './irrigation-valve';
import { PumpStationModel } from './pump-station';
import { SluiceGateModel } from './sluice-gate';
import { SoilMoistureModel } from './soil-moisture';
import { WaterFertilizerModel } from './water-fertilizer';
import { WaterLevelModel } from './water-level';
import { InsectTrapModel } from './insect-trap';

const HOUR = 3_600_000;
/** 2025-07-01 00:00 UTC: summer, when the crops drink. */
const START = Date.UTC(2025, 6, 1);

function dryEnvironment(seed = 1) {
  return createEnvironment({ random: createRandom(seed), start: START, rain: [] });
}

describe('soil moisture', () => {
  it('dries by evapotranspiration without water', () => {
    const soil = new SoilMoistureModel(dryEnvironment(), createRandom(2), START);
    const before = soil.moisture();
    soil.advance(START + 5 * 24 * HOUR);
    const after = soil.moisture();
    expect(after[0]!).toBeLessThan(before[0]! - 3);
    // Roots are shallow: the top dries faster than 60 cm.
    expect(before[0]! - after[0]!).toBeGreaterThan(before[3]! - after[3]!);
  });

  it('wets after irrigation and after rain', () => {
    let watering = 0;
    const irrigated = new SoilMoistureModel(dryEnvironment(), createRandom(3), START, {
      irrigation: () => watering,
    });
    irrigated.advance(START + 48 * HOUR);
    const dry = irrigated.moisture()[0]!;
    watering = 10; // mm/h, a valve of this field open for three hours
    irrigated.advance(START + 51 * HOUR);
    watering = 0;
    expect(irrigated.moisture()[0]!).toBeGreaterThan(dry + 5);

    const rainy = createEnvironment({
      random: createRandom(4),
      start: START,
      rain: [{ start: START + 48 * HOUR, end: START + 52 * HOUR, mmPerHour: 8 }],
    });
    const soil = new SoilMoistureModel(rainy, createRandom(3), START);
    soil.advance(START + 48 * HOUR);
    const beforeRain = soil.moisture();
    soil.advance(START + 72 * HOUR);
    // Water drained down to 20 cm within a day.
    expect(soil.moisture()[0]!).toBeGreaterThan(beforeRain[0]! + 3);
    expect(soil.moisture()[1]!).toBeGreaterThan(beforeRain[1]!);
  });
});

describe('water level', () => {
  it('rises with rainfall and falls after', () => {
    const env = createEnvironment({
      random: createRandom(5),
      start: START,
      rain: [{ start: START + 10 * HOUR, end: START + 13 * HOUR, mmPerHour: 12 }],
    });
    const gauge = new WaterLevelModel(env, createRandom(6), START, { baseLevel: 1.5 });
    gauge.advance(START + 10 * HOUR);
    const before = gauge.level();
    gauge.advance(START + 13 * HOUR);
    const peak = gauge.level();
    gauge.advance(START + 40 * HOUR);
    const after = gauge.level();
    expect(peak).toBeGreaterThan(before + 0.3);
    expect(after).toBeLessThan(peak - 0.2);
    expect(after).toBeGreaterThanOrEqual(1.45);
  });
});

describe('irrigation valve controller', () => {
  it('lets water flow when a valve opens and stops it when closed or when the duration ends', () => {
    const valve = new IrrigationValveModel(dryEnvironment(), createRandom(7), START);
    valve.advance(START + HOUR);
    expect(valve.values()['flow']).toBe(0);
    const volume = valve.values()['cumulativeVolume'] as number;
    expect(valve.command('openValve', { channel: 2, durationMinutes: 30 })).toEqual({ ok: true });
    valve.advance(START + HOUR + 60_000);
    expect(valve.values()['valve2State']).toBe(1);
    expect(valve.values()['flow'] as number).toBeGreaterThan(5);
    valve.advance(START + HOUR + 31 * 60_000);
    expect(valve.values()['valve2State']).toBe(0);
    expect(valve.values()['cumulativeVolume'] as number).toBeGreaterThan(volume + 4);
    valve.command('openValve', { channel: 1 });
    valve.advance(START + 2 * HOUR);
    expect(valve.command('closeValve', { channel: 1 })).toEqual({ ok: true });
    valve.advance(START + 2 * HOUR + 5 * 60_000);
    expect(valve.values()['valve1State']).toBe(0);
    expect(valve.values()['flow']).toBe(0);
    expect(valve.command('openValve', { channel: 9 })?.ok).toBe(false);
  });
});

describe('pump station', () => {
  it('builds pressure and flow when running, accumulates energy, stops', () => {
    const pump = new PumpStationModel(createRandom(8), START);
    const energy = pump.values()['energy'] as number;
    expect(pump.command('startPump', { pumpNo: 1 })?.ok).toBe(true);
    expect(pump.command('setFrequency', { pumpNo: 1, frequency: 45 })?.ok).toBe(true);
    pump.advance(START + HOUR);
    const running = pump.values();
    expect(running['pump1Frequency']).toBeCloseTo(45, 0);
    expect(running['pump2Running']).toBe(false);
    expect(running['flow'] as number).toBeGreaterThan(90);
    expect(running['outletPressure'] as number).toBeGreaterThan(0.2);
    expect(running['energy'] as number).toBeGreaterThan(energy + 9);
    expect(pump.command('setFrequency', { pumpNo: 1, frequency: 80 })?.ok).toBe(false);
    expect(pump.command('startPump', { pumpNo: 3 })?.ok).toBe(false);
    pump.command('stopPump', { pumpNo: 1 });
    pump.advance(START + HOUR + 60_000);
    expect(pump.values()['flow']).toBe(0);
    expect(pump.values()['pump1Running']).toBe(false);
  });
});

describe('sluice gate', () => {
  it('travels to the target opening and passes more water when open', () => {
    const gate = new SluiceGateModel(dryEnvironment(), createRandom(9), START);
    gate.command('closeGate', {});
    gate.advance(START + HOUR);
    expect(gate.values()['flow']).toBe(0);
    expect(gate.command('setGateOpening', { opening: 0.8 })?.ok).toBe(true);
    gate.advance(START + HOUR + 60_000);
    expect(gate.values()['gateOpening'] as number).toBeLessThan(0.8); // still moving
    gate.advance(START + 2 * HOUR);
    expect(gate.values()['gateOpening']).toBeCloseTo(0.8, 2);
    expect(gate.values()['flow'] as number).toBeGreaterThan(1);
    expect(gate.command('setGateOpening', { opening: 5 })?.ok).toBe(false);
  });
});

describe('fertigation', () => {
  it('brings EC and pH to the recipe and draws from the tanks', () => {
    const machine = new WaterFertilizerModel(createRandom(10), START);
    const tank = machine.values()['tankALevel'] as number;
    expect(machine.command('setRecipe', { targetEc: 2.0, targetPh: 6.0 })?.ok).toBe(true);
    const program = {
      group: 1,
      waterBeforeMinutes: 5,
      fertilizerMinutes: 30,
      waterAfterMinutes: 10,
    };
    expect(machine.command('startProgram', program)?.ok).toBe(true);
    expect(machine.command('startProgram', program)?.ok).toBe(false);
    machine.advance(START + 4 * 60_000);
    expect(machine.values()['channelAFlow']).toBe(0); // clear water first
    machine.advance(START + 25 * 60_000);
    const values = machine.values();
    expect(values['ec']).toBeCloseTo(2.0, 1);
    expect(values['ph']).toBeCloseTo(6.0, 1);
    expect(values['channelAFlow'] as number).toBeGreaterThan(0);
    expect(values['tankALevel'] as number).toBeLessThan(tank);
    machine.advance(START + 60 * 60_000);
    expect(machine.values()['running']).toBe(false);
    expect(machine.values()['ec']).toBeCloseTo(0.4, 1);
  });
});

describe('insect trap', () => {
  it('lights the lamp at night only and counts insects at night', () => {
    const trap = new InsectTrapModel(dryEnvironment(), createRandom(11), START);
    // 117E: local noon is about 04:12 UTC, local midnight about 16:12 UTC.
    trap.advance(START + 4 * HOUR);
    expect(trap.values()['lampOn']).toBe(false);
    trap.advance(START + 16 * HOUR);
    expect(trap.values()['lampOn']).toBe(true);
    trap.advance(START + 20 * HOUR);
    expect(trap.values()['insectCount'] as number).toBeGreaterThan(0);
  });
});
