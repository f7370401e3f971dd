import { PRODUCTS, type ThingModel } from '@shuili/contract';
import type { DeviceKind } from './models/create-physics-model';
import { createEnvironment } from './models/environment';
import type { IrrigationValveModel } from './models/irrigation-valve';
import { createRandom } from './random';
import { createSimStats, type SimStats } from './sim-stats';
import { VirtualDevice } from './virtual-device';

/** One device to simulate: its credentials and what it is. */
export interface SimDeviceSpec {
  identity: string;
  secret?: string;
  kind: DeviceKind;
  /** The product's thing model (default: the seeded product of the kind). */
  thingModel?: ThingModel;
  /** Counters continue from these values (VirtualDeviceOptions.counterStart). */
  counterStart?: Record<string, number>;
  /** Card controllers: the cards swiped there (VirtualDeviceOptions.cardNos). */
  cardNos?: readonly string[];
}

export interface SimulationOptions {
  brokerUrl: string;
  devices: SimDeviceSpec[];
  /** Telemetry messages per second, all devices together. */
  rate: number;
  seed?: number;
  /** Chance per telemetry period that a device drops off the network. */
  offlineProbability?: number;
  offlineMs?: [number, number];
  /** Devices connecting at the same time (a large fleet should not storm the broker). */
  connectConcurrency?: number;
  /** Actuators follow a daily routine of their own (PhysicsContext.autoOperate). */
  autoOperate?: boolean;
  /** The server's base URL, where devices with a camera upload their photos (trap-camera.ts). */
  uploadUrl?: string;
  /** Card controllers: swipes a day while idle (default 4). */
  swipesPerDay?: number;
  /** Card controllers: how long a card stays on, hours (default [0.5, 3]). */
  cardSessionHours?: readonly [number, number];
  onError?: (identity: string, error: Error) => void;
}

export interface Simulation {
  readonly devices: VirtualDevice[];
  readonly stats: SimStats;
  stop(): Promise<void>;
}

/** Irrigation a field receives while its valve controller has a valve open, mm/h. */
const IRRIGATION_MM_PER_HOUR = 8;
const RETRY_MS = 5_000;

/**
 * Runs virtual devices over real MQTT. They share one site's weather, and the n-th soil probe
 * lies in the field of the n-th valve controller, so opening that valve wets that soil.
 */
export async function startSimulation(options: SimulationOptions): Promise<Simulation> {
  const random = createRandom(options.seed ?? Date.now());
  const env = createEnvironment({ random: random.fork(), start: Date.now() });
  const stats = createSimStats();
  const intervalMs = Math.max(100, (options.devices.length / Math.max(options.rate, 0.001)) * 1000);
  // Valves first, so the soil probes can be coupled to them.
  const ordered = [...options.devices].sort(
    (a, b) => Number(b.kind === 'irrigation_valve') - Number(a.kind === 'irrigation_valve'),
  );
  const valves: VirtualDevice[] = [];
  let soilIndex = 0;
  const devices = ordered.map((spec) => {
    let irrigation: (() => number) | undefined;
    if (spec.kind === 'soil_moisture') {
      const valve = valves[soilIndex++ % Math.max(1, valves.length)];
      if (valve) {
        const physics = valve.physics as IrrigationValveModel;
        irrigation = () => (physics.isOpen() ? IRRIGATION_MM_PER_HOUR : 0);
      }
    }
    const device = new VirtualDevice({
      brokerUrl: options.brokerUrl,
      identity: spec.identity,
      ...(spec.secret ? { secret: spec.secret } : {}),
      kind: spec.kind,
      ...(spec.counterStart ? { counterStart: spec.counterStart } : {}),
      ...(spec.cardNos ? { cardNos: spec.cardNos } : {}),
      ...(options.swipesPerDay !== undefined ? { swipesPerDay: options.swipesPerDay } : {}),
      ...(options.cardSessionHours ? { cardSessionHours: options.cardSessionHours } : {}),
      thingModel:
        spec.thingModel ?? PRODUCTS.find((product) => product.kind === spec.kind)?.thingModel,
      intervalMs,
      random: random.fork(),
      env,
      offlineProbability: options.offlineProbability ?? 0.002,
      offlineMs: options.offlineMs ?? [10_000, 90_000],
      stats,
      ...(irrigation ? { irrigation } : {}),
      autoOperate: options.autoOperate ?? false,
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      onError: (error) => options.onError?.(spec.identity, error),
    });
    if (spec.kind === 'irrigation_valve') valves.push(device);
    return device;
  });

  let stopped = false;
  const retries = new Set<NodeJS.Timeout>();
  const start = async (device: VirtualDevice): Promise<void> => {
    try {
      await device.start();
    } catch (error) {
      stats.errors++;
      options.onError?.(device.identity, error as Error);
      if (stopped) return;
      // A refused or unreachable device tries again later, like a field RTU would.
      const timer = setTimeout(() => {
        retries.delete(timer);
        if (!stopped) void start(device);
      }, RETRY_MS);
      retries.add(timer);
    }
  };
  const queue = [...devices];
  const workers = Array.from({ length: options.connectConcurrency ?? 50 }, async () => {
    for (let device = queue.shift(); device && !stopped; device = queue.shift())
      await start(device);
  });
  await Promise.all(workers);

  return {
    devices,
    stats,
    async stop() {
      stopped = true;
      for (const timer of retries) clearTimeout(timer);
      await Promise.all(devices.map((device) => device.stop()));
    },
  };
}
