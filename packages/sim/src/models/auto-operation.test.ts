import { describe, expect, it } from 'vitest';
import { createRandom } from '../random';
import { createEnvironment } from './environment';
import { IrrigationValveModel } from './irrigation-valve';
import { PumpStationModel } from './pump-station';
import { localDayStart } from './sky';
import { SoilMoistureModel } from './soil-moisture';
import { WaterFertilizerModel } from './water-fertilizer';
import { WeatherStationModel } from './weather-station';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 2025-07-01 00:00 UTC. */
const START = Date.UTC(2025, 6, 1);
const LNG = 117;
/** Local solar midnight of the first day after START. */
const MIDNIGHT = localDayStart(START, LNG) + DAY;
const at = (day: number, hour: number) => MIDNIGHT + day * DAY + hour * HOUR;

const dry = (seed = 1) => createEnvironment({ random: createRandom(seed), start: START, rain: [] });

describe('pump stations on their daily routine', () => {
  it('draw the forebay down by day (below the 1 m dry-run level on low days) and refill it at night', () => {
    const station = new PumpStationModel(createRandom(3), START, {
      env: dry(),
      autoOperate: true,
    });
    let below = 0;
    for (let day = 0; day < 14; day++) {
      station.advance(at(day, 5.5));
      const morning = station.values();
      expect(morning['pump1Running']).toBe(false);
      station.advance(at(day, 12));
      const noon = station.values();
      expect(noon['pump1Running']).toBe(true);
      expect(noon['pump2Running'] || (noon['forebayLevel'] as number) < 0.8).toBe(true);
      station.advance(at(day, 19.5));
      const evening = station.values()['forebayLevel'] as number;
      expect(evening).toBeLessThan(morning['forebayLevel'] as number);
      if (evening < 1) below++;
      station.advance(at(day + 1, 5.5));
      expect(station.values()['forebayLevel'] as number).toBeGreaterThan(evening);
    }
    expect(below).toBeGreaterThan(0);
    expect(below).toBeLessThan(14);
  });

  it('answer start, stop and set frequency at once, the values following', () => {
    const station = new PumpStationModel(createRandom(4), START, { env: dry(), autoOperate: true });
    station.advance(at(0, 2));
    expect(station.command('startPump', { pumpNo: 2 })).toEqual({ ok: true });
    expect(station.command('setFrequency', { pumpNo: 2, frequency: 30 })).toEqual({ ok: true });
    station.advance(at(0, 2) + 60_000);
    expect(station.values()).toMatchObject({ pump2Running: true, pump2Frequency: 30 });
    expect(station.values()['flow'] as number).toBeGreaterThan(60);
    expect(station.command('stopPump', { pumpNo: 2 })).toEqual({ ok: true });
    station.advance(at(0, 2) + 120_000);
    expect(station.values()).toMatchObject({ pump2Running: false, pump2Frequency: 0, flow: 0 });
  });
});

describe('fertigation on its daily routine', () => {
  it('runs a program every morning with EC and pH around the recipe, noisy', () => {
    const machine = new WaterFertilizerModel(createRandom(5), START, {
      env: dry(),
      autoOperate: true,
    });
    machine.advance(at(0, 7.9));
    expect(machine.values()['running']).toBe(false);
    expect(machine.command('setRecipe', { targetEc: 2.2, targetPh: 6 })).toEqual({ ok: true });
    const ec: number[] = [];
    const ph: number[] = [];
    // Fertilizer from 08:15 to 09:45; the mix settles within minutes.
    for (let minute = 30; minute <= 100; minute += 2) {
      machine.advance(at(0, 8) + minute * 60_000);
      expect(machine.values()['running']).toBe(true);
      ec.push(machine.values()['ec'] as number);
      ph.push(machine.values()['ph'] as number);
    }
    const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
    expect(mean(ec)).toBeCloseTo(2.2, 1);
    expect(mean(ph)).toBeCloseTo(6, 1);
    expect(Math.max(...ec) - Math.min(...ec)).toBeGreaterThan(0.01);
    machine.advance(at(0, 11));
    expect(machine.values()['running']).toBe(false);
    expect(machine.values()['ec'] as number).toBeLessThan(0.6);
    // It answers stopProgram while running, and the next morning it starts again.
    machine.advance(at(1, 8.5));
    expect(machine.values()['running']).toBe(true);
    expect(machine.command('stopProgram', {})).toEqual({ ok: true });
    machine.advance(at(1, 8.6));
    expect(machine.values()['running']).toBe(false);
  });
});

describe('valve controllers on their rotation', () => {
  it('open each channel in turn on their days and close them by themselves', () => {
    const valve = new IrrigationValveModel(dry(), createRandom(6), START, { autoOperate: true });
    const opened = new Set<number>();
    let openReadings = 0;
    for (let minute = 0; minute < 5 * 24 * 60; minute += 5) {
      valve.advance(MIDNIGHT + minute * 60_000);
      const values = valve.values();
      const channels = [1, 2, 3, 4].filter((channel) => values[`valve${channel}State`] === 1);
      // One channel at a time, 45 minutes each.
      expect(channels.length).toBeLessThanOrEqual(1);
      for (const channel of channels) opened.add(channel);
      if (channels.length > 0) openReadings++;
    }
    expect([...opened].sort()).toEqual([1, 2, 3, 4]);
    // At most two rotation days in five, four channels of 45 minutes each (in 5-minute looks).
    expect(openReadings).toBeGreaterThanOrEqual(36);
    expect(openReadings).toBeLessThanOrEqual(3 * 36 + 3);
  });
});

describe('soil profiles', () => {
  it('wet from the top after a heavy irrigation: 10 cm at once, 60 cm slowly and later', () => {
    let watering = 0;
    const soil = new SoilMoistureModel(dry(), createRandom(7), START, {
      irrigation: () => watering,
    });
    soil.advance(START + 3 * DAY);
    const before = soil.moisture();
    watering = 15;
    soil.advance(START + 3 * DAY + 5 * HOUR);
    watering = 0;
    const soon = soil.moisture();
    expect(soon[0]! - before[0]!).toBeGreaterThan(5);
    expect(soon[3]! - before[3]!).toBeLessThan(1);
    soil.advance(START + 5 * DAY);
    const later = soil.moisture();
    expect(later[3]!).toBeGreaterThan(soon[3]!);
    expect(later[0]!).toBeLessThan(soon[0]!);
  });
});

describe('weather stations', () => {
  it('report radiation with the sun only, and the bright sunshine of each interval', () => {
    const station = new WeatherStationModel(dry(8), createRandom(9), MIDNIGHT);
    station.advance(at(0, 1));
    station.values();
    station.advance(at(0, 3));
    expect(station.values()).toMatchObject({ solarRadiation: 0, sunshineHours: 0 });
    let sunshine = 0;
    for (let hour = 4; hour <= 24; hour++) {
      station.advance(at(0, hour));
      const values = station.values();
      expect(values['sunshineHours'] as number).toBeLessThanOrEqual(1);
      sunshine += values['sunshineHours'] as number;
      if (hour === 12) expect(values['solarRadiation'] as number).toBeGreaterThan(300);
      if (hour === 23) expect(values['solarRadiation']).toBe(0);
    }
    // A dry summer day at 36.6° N: most of its 14.5 daylight hours bright.
    expect(sunshine).toBeGreaterThan(6);
    expect(sunshine).toBeLessThan(14.5);
  });

  it('turns the wind and brings showers', () => {
    const env = createEnvironment({ random: createRandom(10), start: START });
    const station = new WeatherStationModel(env, createRandom(11), START);
    const directions = new Set<number>();
    let rain = 0;
    for (let hour = 1; hour <= 14 * 24; hour++) {
      station.advance(START + hour * HOUR);
      const values = station.values();
      directions.add(Math.round((values['windDirection'] as number) / 45) % 8);
      rain += values['rainfall'] as number;
    }
    expect(directions.size).toBeGreaterThanOrEqual(4);
    expect(rain).toBeGreaterThan(0);
    expect(rain).toBeCloseTo(env.rainBetween(START + HOUR, START + 14 * 24 * HOUR), 0);
  });
});
