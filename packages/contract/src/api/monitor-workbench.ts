// Types only from the alarm entity: the console's workbench imports this module's call, and the
// entity module (its declaration kit) would come with a value import.
import type { AlarmLevel } from '../entities/iot/alarm-rule.entity';

/** The workbench's call (server route, web client, grants). */
export const WORKBENCH_CALLS = {
  overview: '/api/monitor/workbench/queryOverview',
} as const;

/** Newest alarms and operation records the workbench lists. */
export const WORKBENCH_RECENT = 8;

/** One area's devices by state; `alarm` (devices with an open alarm) only with the alarm grant. */
export interface WorkbenchAreaCounts {
  /** AreaDef.code */
  area: string;
  total: number;
  online: number;
  offline: number;
  /** Health other than 0 (a fault code), online or not. */
  fault: number;
  alarm?: number;
}

export interface WorkbenchAlarm {
  id: string;
  deviceId: string | null;
  deviceNo: string | null;
  deviceName: string | null;
  propertyKey: string;
  level: string;
  value: number | null;
  threshold: number | null;
  state: string;
  startedAt: string;
  clearedAt: string | null;
  acknowledged: boolean;
}

export interface WorkbenchCommand {
  id: string;
  deviceId: string | null;
  deviceNo: string | null;
  deviceName: string | null;
  /** The command's key in the device's thing model (setProperty for a written property). */
  name: string;
  /** The parameters as sent (JSON text). */
  params: string;
  status: string;
  username: string | null;
  createdAt: string;
  latencyMs: number | null;
  result: string | null;
}

/** Water delivered (m³): increases of the metering areas' cumulativeVolume counters. */
export interface WorkbenchWater {
  /** The tenant's time zone: "today" and "this month" are its calendar's. */
  timeZone: string;
  today: number;
  month: number;
  /** Per area whose declaration totals cumulativeVolume (irrigation, pump stations). */
  areas: Array<{ area: string; today: number; month: number }>;
}

/**
 * The located devices of the areas as the overview's map draws them: columns, one entry per
 * device at the same index in each (10,000 devices as objects would be twice the bytes).
 */
export interface WorkbenchMap {
  ids: string[];
  names: string[];
  /** AreaDef.code */
  areas: string[];
  lat: number[];
  lng: number[];
  online: boolean[];
  /** The spec health code: 0 normal, else a fault. */
  status: number[];
  /** Highest alarm wanting attention (null: none); absent without the alarm grant. */
  alarmLevels?: Array<string | null>;
}

/**
 * GET /api/monitor/workbench/queryOverview: the operations overview in the caller's device scope.
 * Sections the caller's role may not read (alarms, operation records, telemetry for the water)
 * are absent.
 */
export interface WorkbenchOverview {
  generatedAt: string;
  areas: WorkbenchAreaCounts[];
  alarms?: {
    /** Open alarms per level, every level present. */
    levels: Record<AlarmLevel, number>;
    open: number;
    /** Alarms (open or cleared) nobody has acknowledged yet. */
    unacknowledged: number;
    recent: WorkbenchAlarm[];
  };
  commands?: {
    /** Commands sent since the start of the tenant's day, and how many of them failed. */
    today: number;
    failedToday: number;
    recent: WorkbenchCommand[];
  };
  water?: WorkbenchWater;
  map: WorkbenchMap;
}
