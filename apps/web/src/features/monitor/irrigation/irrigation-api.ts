import {
  AREA_DEVICE_CALLS,
  entityCalls,
  IRRIGATION_CALLS,
  valveGroupEntity,
  type AreaDevicePage,
  type BatchValveControlResult,
  type PageResult,
  type ScheduleRun,
} from '@shuili/contract';
import { http } from '../../../lib/http';

/** Devices one select offers (a select of a district's valves, not a list screen). */
const OPTIONS_PAGE = 500;

/** The irrigation valves the caller sees (their zones), for the group members' select. */
export const irrigationValves = (signal?: AbortSignal) =>
  http.get<AreaDevicePage>(AREA_DEVICE_CALLS.query, {
    params: { area: 'irrigation', pageSize: OPTIONS_PAGE },
    signal,
  });

/** The tenant's valve groups (id and name), for the rotation steps' select. */
export const valveGroups = (signal?: AbortSignal) =>
  http.get<PageResult<{ id: string; groupName: string }>>(entityCalls(valveGroupEntity).query, {
    params: { pageSize: OPTIONS_PAGE },
    signal,
  });

/** One command per channel of a valve group (a refusal per channel is in the answer). */
export const batchValveControl = (body: {
  groupId: string;
  action: 'open' | 'close';
  durationMinutes?: number;
}) => http.post<BatchValveControlResult>(IRRIGATION_CALLS.batchValveControl, { data: body });

export const stopRotation = (scheduleId: string) =>
  http.post<{ stoppedSteps: number }>(IRRIGATION_CALLS.stopRotation, { data: { scheduleId } });

/** The newest runs of rotation schedules or soil rules (one, or all of the kind). */
export const scheduleRuns = (kind: 'rotation' | 'soilRule', id?: string, signal?: AbortSignal) =>
  http.get<ScheduleRun[]>(IRRIGATION_CALLS.scheduleRuns, {
    params: { kind, ...(id ? { id } : {}), limit: 100 },
    signal,
  });
