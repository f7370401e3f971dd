import type { AreaDevice } from '../widgets/widget-types';

/** A device's state as the cards and map colour it: fault over alarm over offline over ok. */
export type DeviceState = 'fault' | 'alarm' | 'offline' | 'ok';

export function deviceState(device: AreaDevice): DeviceState {
  if (device.status !== 0) return 'fault';
  if (device.alarmLevel) return 'alarm';
  if (!device.online) return 'offline';
  return 'ok';
}
