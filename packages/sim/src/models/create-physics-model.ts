import { DEVICE_KINDS, type DeviceKind } from '@shuili/contract';
import type { Random } from '../random';
import { CameraModel } from './camera';
import { CardControllerModel } from './card-controller';
import type { Environment } from './environment';
import { FloodStationModel } from './flood-station';
import { InsectTrapModel } from './insect-trap';
import { IrrigationValveModel } from './irrigation-valve';
import { LedScreenModel } from './led-screen';
import type { PhysicsModel } from './physics-model';
import { PumpStationModel } from './pump-station';
import { RunoffPlotModel } from './runoff-plot';
import { SedimentStationModel } from './sediment-station';
import { SluiceGateModel } from './sluice-gate';
import { SoilMoistureModel } from './soil-moisture';
import { WaterFertilizerModel } from './water-fertilizer';
import { WeatherStationModel } from './weather-station';

/** The products' `device_kind` dictionary (one physics per kind), as the contract declares it. */
export { DEVICE_KINDS, type DeviceKind };

export function isDeviceKind(value: unknown): value is DeviceKind {
  return (DEVICE_KINDS as readonly unknown[]).includes(value);
}

export interface PhysicsContext {
  env: Environment;
  random: Random;
  /** Simulated time the model starts at, ms. */
  start: number;
  /** Irrigation reaching a soil probe's field, mm/h (a valve of that field open). */
  irrigation?: () => number;
  /**
   * Actuators follow a daily routine of their own (pumps by day, valves on rotation days, a
   * morning fertigation program): the demo district works without anyone pressing buttons.
   */
  autoOperate?: boolean;
  /** Card controllers: the cards farmers swipe, and how often (CardControllerOptions). */
  cardNos?: readonly string[];
  swipesPerDay?: number;
  cardSessionHours?: readonly [number, number];
}

/** The physics of a device kind. */
export function createPhysicsModel(kind: DeviceKind, context: PhysicsContext): PhysicsModel {
  const { env, random, start } = context;
  const autoOperate = context.autoOperate ?? false;
  switch (kind) {
    case 'irrigation_valve':
      return new IrrigationValveModel(env, random, start, { autoOperate });
    case 'pump_station':
      return new PumpStationModel(random, start, { env, autoOperate });
    case 'sluice_gate':
      return new SluiceGateModel(env, random, start);
    case 'water_fertilizer':
      return new WaterFertilizerModel(random, start, { env, autoOperate });
    case 'weather_station':
      return new WeatherStationModel(env, random, start);
    case 'flood_station':
      return new FloodStationModel(env, random, start);
    case 'soil_moisture':
      return new SoilMoistureModel(env, random, start, {
        ...(context.irrigation ? { irrigation: context.irrigation } : {}),
      });
    case 'sediment_station':
      return new RunoffPlotModel(env, random, start);
    case 'silt_station':
    case 'bayonet_station':
      return new SedimentStationModel(env, random, start);
    case 'insect_trap':
      return new InsectTrapModel(env, random, start);
    case 'camera':
      return new CameraModel(env, random, start);
    case 'led_screen':
      return new LedScreenModel(env, random, start);
    case 'card_controller':
      return new CardControllerModel(random, start, {
        ...(context.cardNos ? { cardNos: context.cardNos } : {}),
        ...(context.swipesPerDay !== undefined ? { swipesPerDay: context.swipesPerDay } : {}),
        ...(context.cardSessionHours ? { sessionHours: context.cardSessionHours } : {}),
      });
  }
}
