import type { RefTarget } from '../../entity-kit';

/** Where valve groups, rotation schedules and soil-moisture rules are edited: tabs there. */
export const IRRIGATION_CONFIG_SCREEN = '/irrigation/irrigationMonitorConfiguration';

/** The irrigation area's own API (its entities' generic calls and its control calls). */
export const IRRIGATION_PATH = '/api/monitor/irrigation';

/** What rotation schedules and soil rules refer to; apart from the entities (no import cycles). */
export const VALVE_GROUP_TARGET: RefTarget = {
  table: 'monitor_valve_group',
  labelColumn: 'group_name',
  labelField: 'groupName',
  queryCall: `${IRRIGATION_PATH}/queryValveGroup`,
};

/**
 * A valve group's member as stored: `<deviceId>:<channel>` (one channel of one irrigation
 * valve controller). The console edits them with a device picker and channel boxes.
 */
export const VALVE_MEMBER_PATTERN = /^(\d{1,19}):(\d{1,2})$/;

/** A rotation step as stored: `<valveGroupId>:<minutes>`, in running order. */
export const ROTATION_STEP_PATTERN = /^(\d{1,19}):(\d{1,4})$/;

export interface ValveMember {
  deviceId: string;
  channel: number;
}

export interface RotationStep {
  groupId: string;
  minutes: number;
}

/** A stored member, or undefined when it is not one. */
export function parseValveMember(value: string): ValveMember | undefined {
  const match = VALVE_MEMBER_PATTERN.exec(value);
  return match ? { deviceId: match[1]!, channel: Number(match[2]) } : undefined;
}

export function formatValveMember(member: ValveMember): string {
  return `${member.deviceId}:${member.channel}`;
}

/** A stored rotation step, or undefined when it is not one. */
export function parseRotationStep(value: string): RotationStep | undefined {
  const match = ROTATION_STEP_PATTERN.exec(value);
  return match ? { groupId: match[1]!, minutes: Number(match[2]) } : undefined;
}

export function formatRotationStep(step: RotationStep): string {
  return `${step.groupId}:${step.minutes}`;
}

/** Minutes a rotation step may last (one valve open command's duration at most). */
export const ROTATION_STEP_MINUTES = { min: 1, max: 1440 } as const;

/** Soil depths the soil stations report (soilMoisture<depth>). */
export const SOIL_DEPTHS = ['10', '20', '40', '60'] as const;
