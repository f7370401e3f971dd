import { PRODUCTS, type ThingModel } from '@shuili/contract';
import { conformValues, type ReportedValues } from './conform-values';
import { createPhysicsModel, type DeviceKind } from './models/create-physics-model';
import { DeviceHealthModel } from './models/device-health';
import { createEnvironment } from './models/environment';
import type { IrrigationValveModel } from './models/irrigation-valve';
import { SteppedModel } from './models/physics-model';
import { createRandom } from './random';

/** One device whose past is simulated. */
export interface HistoryDevice {
  id: string;
  kind: DeviceKind;
  /** The product's thing model (default: the seeded product of the kind). */
  thingModel?: ThingModel;
  /** Time between two of its readings, ms (default: the options' everyMs). */
  everyMs?: number;
}

export interface HistoryOptions {
  devices: readonly HistoryDevice[];
  /** The first and last instants, ms. */
  from: number;
  to: number;
  /** Time between two readings of a device, ms (an hour by default). */
  everyMs?: number;
  seed?: number;
}

/** One reading of a device, as it would have reported it. */
export interface HistoryReading {
  ts: number;
  values: ReportedValues;
}

/**
 * The physics integrate in steps of five minutes here (a valve's 45 minutes, a pump's day and a
 * program's phases still show): a month of a district's devices takes about a second.
 */
const STEP_MS = 300_000;
/** Irrigation a field receives while its valve controller has a valve open, mm/h. */
const IRRIGATION_MM_PER_HOUR = 8;

/**
 * The readings the devices would have reported over a past period, from the same physics as the
 * live simulation and on one site's weather: pumps by day drawing the forebay down, valves on
 * their rotation days wetting the soil of their field (the n-th soil probe lies in the n-th
 * valve controller's field), fertigation programs each morning, rain, sun and wind. For the demo's
 * history (seeded once): its charts, reports and water delivered show something real at once.
 * Each device reports at its own minute of the period (after `from`, at most `to`), so devices
 * do not all report at once.
 */
export function simulateHistory(options: HistoryOptions): Map<string, HistoryReading[]> {
  const random = createRandom(options.seed ?? 20250601);
  const env = createEnvironment({ random: random.fork(), start: options.from });
  const valves: IrrigationValveModel[] = [];
  let soils = 0;
  // Valves first, so the soil probes can be coupled to them.
  const ordered = [...options.devices].sort(
    (a, b) => Number(b.kind === 'irrigation_valve') - Number(a.kind === 'irrigation_valve'),
  );
  const sims = ordered.map((device) => {
    let irrigation: (() => number) | undefined;
    if (device.kind === 'soil_moisture' && valves.length > 0) {
      const valve = valves[soils++ % valves.length]!;
      irrigation = () => (valve.isOpen() ? IRRIGATION_MM_PER_HOUR : 0);
    }
    const own = random.fork();
    const physics = createPhysicsModel(device.kind, {
      env,
      random: own.fork(),
      start: options.from,
      autoOperate: true,
      ...(irrigation ? { irrigation } : {}),
    });
    if (physics instanceof SteppedModel) physics.coarsen(STEP_MS);
    if (device.kind === 'irrigation_valve') valves.push(physics as IrrigationValveModel);
    const every = device.everyMs ?? options.everyMs ?? 3_600_000;
    return {
      device,
      every,
      physics,
      health: new DeviceHealthModel(env, own.fork(), options.from),
      model: device.thingModel ??
        PRODUCTS.find((product) => product.kind === device.kind)?.thingModel ?? {
          properties: [],
          events: [],
          commands: [],
        },
      /** When its next reading is due: each device at its own step of the period (never 0). */
      next:
        options.from + (1 + Math.floor(own.next() * (Math.max(every / STEP_MS, 2) - 1))) * STEP_MS,
      drift: new Map<string, number>(),
      random: own,
      readings: [] as HistoryReading[],
    };
  });
  // All devices step together (a valve's open hour wets its field's soil in that hour); each
  // reports when its next reading is due.
  for (let t = options.from; t <= options.to; t += STEP_MS) {
    for (const sim of sims) {
      sim.physics.advance(t);
      sim.health.advance(t);
      if (t < sim.next) continue;
      sim.next += sim.every;
      const raw = { ...sim.health.values(), ...sim.physics.values() };
      sim.readings.push({ ts: t, values: conformValues(raw, sim.model, sim.random, sim.drift) });
    }
  }
  return new Map(sims.map((sim) => [sim.device.id, sim.readings]));
}
