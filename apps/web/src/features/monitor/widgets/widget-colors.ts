import type { AreaDevice } from './widget-types';

/**
 * Colours that say a state at a glance, the same on every widget: running green, stopped grey,
 * fault red, moving blue; alarms in the flood warning colours (blue, yellow, orange, red).
 */
export const STATE_COLOR = {
  running: '#52c41a',
  stopped: '#8c8c8c',
  fault: '#f5222d',
  moving: '#1677ff',
  offline: '#bfbfbf',
  unknown: '#d9d9d9',
  water: '#69b1ff',
  waterDeep: '#1677ff',
  warning: '#fa8c16',
} as const;

export const ALARM_COLOR: Record<string, string> = {
  blue: '#1677ff',
  yellow: '#fadb14',
  orange: '#fa8c16',
  red: '#f5222d',
};

/** The colour of a device as a whole: fault over alarm over offline over normal. */
export function deviceColor(device: AreaDevice): string {
  if (device.status !== 0) return STATE_COLOR.fault;
  if (device.alarmLevel && ALARM_COLOR[device.alarmLevel]) return ALARM_COLOR[device.alarmLevel]!;
  if (!device.online) return STATE_COLOR.offline;
  return STATE_COLOR.running;
}

/** A running flag's colour: grey when unknown or offline (the last state may be stale). */
export function runColor(running: number | undefined, online: boolean): string {
  if (running === undefined || !online) return STATE_COLOR.unknown;
  return running ? STATE_COLOR.running : STATE_COLOR.stopped;
}
