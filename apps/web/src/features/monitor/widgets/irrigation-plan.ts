import { parseRotationStep, parseValveMember } from '@shuili/contract';

/** A valve group row as its entity query answers it (the fields this panel reads). */
export interface ValveGroupRow {
  id: string;
  groupName: string;
  zoneIdLabel?: string | null;
  members: string[];
  status?: number;
}

/** A rotation schedule row as its entity query answers it. */
export interface RotationScheduleRow {
  id: string;
  scheduleName: string;
  steps: string[];
  startTime: string;
  daysOfWeek?: string[] | null;
  lastRun?: string | null;
  nextRun?: string | null;
  status?: number;
}

/** A group this controller belongs to, with its channels in it. */
export interface DeviceGroup {
  id: string;
  name: string;
  zone: string | null;
  channels: number[];
  enabled: boolean;
}

/** A schedule that opens one of those groups, and when in its run. */
export interface DeviceSchedule {
  id: string;
  name: string;
  startTime: string;
  days: string[];
  /** The steps of this device's groups: which group, from which minute, for how long. */
  steps: { groupId: string; groupName: string; offsetMinutes: number; minutes: number }[];
  /** Minutes of the whole rotation. */
  totalMinutes: number;
  lastRun: string | null;
  nextRun: string | null;
  enabled: boolean;
}

/** Entity status 1 is enabled (f.status). */
const enabled = (status: number | undefined) => status === undefined || status === 1;

/**
 * What of the irrigation plan touches one controller: the valve groups with a channel of it, and
 * the rotation schedules with a step of one of those groups (offsets from the rotation's start).
 */
export function planOf(
  deviceId: string,
  groups: readonly ValveGroupRow[],
  schedules: readonly RotationScheduleRow[],
): { groups: DeviceGroup[]; schedules: DeviceSchedule[] } {
  const mine: DeviceGroup[] = [];
  for (const group of groups) {
    const channels = (group.members ?? [])
      .map(parseValveMember)
      .filter((member) => member?.deviceId === deviceId)
      .map((member) => member!.channel)
      .sort((a, b) => a - b);
    if (channels.length === 0) continue;
    mine.push({
      id: group.id,
      name: group.groupName,
      zone: group.zoneIdLabel ?? null,
      channels,
      enabled: enabled(group.status),
    });
  }
  const names = new Map(groups.map((group) => [group.id, group.groupName]));
  const ids = new Set(mine.map((group) => group.id));
  const touching: DeviceSchedule[] = [];
  for (const schedule of schedules) {
    let offset = 0;
    const steps: DeviceSchedule['steps'] = [];
    for (const text of schedule.steps ?? []) {
      const step = parseRotationStep(text);
      if (!step) continue;
      if (ids.has(step.groupId))
        steps.push({
          groupId: step.groupId,
          groupName: names.get(step.groupId) ?? step.groupId,
          offsetMinutes: offset,
          minutes: step.minutes,
        });
      offset += step.minutes;
    }
    if (steps.length === 0) continue;
    touching.push({
      id: schedule.id,
      name: schedule.scheduleName,
      startTime: schedule.startTime,
      days: schedule.daysOfWeek ?? [],
      steps,
      totalMinutes: offset,
      lastRun: schedule.lastRun ?? null,
      nextRun: schedule.nextRun ?? null,
      enabled: enabled(schedule.status),
    });
  }
  return { groups: mine, schedules: touching };
}

/** "06:00" plus minutes as a time of day ("07:30"; past midnight it wraps). */
export function timeAfter(startTime: string, minutes: number): string {
  const [hours, mins] = startTime.split(':').map(Number);
  const total = ((((hours ?? 0) * 60 + (mins ?? 0) + minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
