import type { ThingModel } from '@shuili/contract';
import { isDeviceKind } from './models/create-physics-model';
import { startSimulation, type SimDeviceSpec, type Simulation } from './simulation';

export interface LightSimulationOptions {
  brokerUrl: string;
  /** The demo tenant's devices with their secrets, kinds (product device_kind) and thing models. */
  devices: {
    identity: string;
    secret: string;
    kind: string;
    thingModel?: ThingModel;
    /** The counters' last stored values: they continue from there. */
    counterStart?: Record<string, number>;
    /** Card controllers: the tenant's cards farmers swipe there. */
    cardNos?: readonly string[];
  }[];
  /** Telemetry messages per second in total (default: one reading per device every 30 s). */
  rate?: number;
  /** Devices per kind (default 3). */
  perKind?: number;
  /** The server's base URL: insect traps upload their tray photos there. */
  uploadUrl?: string;
  onError?: (identity: string, error: Error) => void;
}

/**
 * The gentle simulation `npm start` runs in-process (off with SIM=0): a few devices of every
 * kind, so the console has live data, commands answered and the odd device offline.
 */
export function startLightSimulation(options: LightSimulationOptions): Promise<Simulation> {
  const perKind = options.perKind ?? 3;
  const taken = new Map<string, number>();
  const devices: SimDeviceSpec[] = [];
  for (const device of options.devices) {
    if (!isDeviceKind(device.kind)) continue;
    const count = taken.get(device.kind) ?? 0;
    if (count >= perKind) continue;
    taken.set(device.kind, count + 1);
    devices.push({
      identity: device.identity,
      secret: device.secret,
      kind: device.kind,
      ...(device.thingModel ? { thingModel: device.thingModel } : {}),
      ...(device.counterStart ? { counterStart: device.counterStart } : {}),
      ...(device.cardNos ? { cardNos: device.cardNos } : {}),
    });
  }
  return startSimulation({
    brokerUrl: options.brokerUrl,
    devices,
    rate: options.rate ?? Math.max(devices.length / 30, 0.1),
    offlineProbability: 0.003,
    offlineMs: [15_000, 120_000],
    // Nobody presses buttons in a fresh demo: pumps, valves and fertigation run their routine.
    autoOperate: true,
    // A card swiped at an idle well every half hour or so, kept on for 5 to 40 minutes: a
    // visitor sees sessions come and go (and settled) within the hour.
    swipesPerDay: 48,
    cardSessionHours: [0.08, 0.67],
    ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
