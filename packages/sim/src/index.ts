export { startLightSimulation, type LightSimulationOptions } from './light-simulation';
export {
  startSimulation,
  type SimDeviceSpec,
  type Simulation,
  type SimulationOptions,
} from './simulation';
export { VirtualDevice, type VirtualDeviceOptions } from './virtual-device';
export {
  DEVICE_KINDS,
  type DeviceKind,
  createPhysicsModel,
  isDeviceKind,
} from './models/create-physics-model';
export { createEnvironment, type Environment } from './models/environment';
export { CardControllerModel, type CardControllerOptions } from './models/card-controller';
export { createRandom, type Random } from './random';
export { createSimStats, formatSimStats, type SimStats } from './sim-stats';
export { productOfDevice } from './device-kind-of';
export {
  simulateHistory,
  type HistoryDevice,
  type HistoryOptions,
  type HistoryReading,
} from './history';
export { drawCatchPhoto, drawSpeciesPortrait, type CatchPhoto } from './images/catch-photo';
export { INSECT_LOOKS, type InsectLook } from './images/insect-shapes';
export { paintPng, encodePng, type Rgb } from './images/png';
