import { z } from 'zod';
import { AREAS } from '../areas/areas';
import type { ThingModel } from '../iot/thing-model';

/** The area device list's call (server route, web client, grants). */
export const AREA_DEVICE_CALLS = {
  query: '/api/monitor/device/queryAreaDevice',
} as const;

/** Largest page of the area device list (its cards and map show a page too). */
export const AREA_DEVICE_MAX_PAGE_SIZE = 500;
export const AREA_DEVICE_DEFAULT_PAGE_SIZE = 50;

const invalid = { error: 'validation.invalid' };
const id = z.string().regex(/^\d{1,18}$/, invalid);
const areaCodes = AREAS.map((area) => area.code) as [string, ...string[]];

/** GET /api/monitor/device/queryAreaDevice */
export const areaDeviceQuerySchema = z.object({
  /** The area's code (AreaDef.code): its device kinds are the list's products. */
  area: z.enum(areaCodes),
  /** A zone: its devices and those of every zone below it. */
  zoneId: id.optional(),
  projectId: id.optional(),
  /** Health: normal (status 0) or fault (any other status). */
  status: z.enum(['normal', 'fault']).optional(),
  online: z.enum(['true', 'false']).optional(),
  /** Part of the device's number or name. */
  text: z.string().trim().max(64).optional(),
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(AREA_DEVICE_MAX_PAGE_SIZE)
    .default(AREA_DEVICE_DEFAULT_PAGE_SIZE),
});
export type AreaDeviceQuery = Omit<
  z.input<typeof areaDeviceQuerySchema>,
  'currentPage' | 'pageSize'
> & { currentPage?: number; pageSize?: number };

/** One device of an area's list. */
export interface AreaDeviceRow {
  id: string;
  deviceNo: string;
  deviceName: string;
  productId: string;
  projectId: string | null;
  projectName: string | null;
  zoneId: string | null;
  zoneName: string | null;
  lat: number | null;
  lng: number | null;
  /** Spec health: 0 normal, anything else a fault code. */
  status: number;
  online: boolean;
  lastSeen: string | null;
  /** Highest alarm wanting attention; absent for a role that may not read alarms. */
  alarmLevel?: string | null;
  /**
   * Latest value per property key (numbers, enum codes, booleans as 0/1) of every numeric, enum
   * and boolean property reported; absent for a role that may not read telemetry.
   */
  values?: Record<string, number | string | null>;
  /** When each value was measured (ISO), alongside `values`. */
  valueTimes?: Record<string, string>;
}

/** A product of the answer's devices, once however many rows it has. */
export interface AreaDeviceProduct {
  id: string;
  productName: string;
  thingModel: ThingModel;
}

/** Devices of the filtered set by state (`alarm`: only for a role that may read alarms). */
export interface AreaDeviceCounts {
  online: number;
  offline: number;
  fault: number;
  alarm?: number;
}

export interface AreaDevicePage {
  list: AreaDeviceRow[];
  total: number;
  currentPage: number;
  pageSize: number;
  counts: AreaDeviceCounts;
  products: AreaDeviceProduct[];
}

const rowSchema = z.object({
  id: z.string(),
  deviceNo: z.string(),
  deviceName: z.string(),
  productId: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  zoneId: z.string().nullable(),
  zoneName: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  status: z.number(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  alarmLevel: z.string().nullable().optional(),
  values: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).optional(),
  valueTimes: z.record(z.string(), z.string()).optional(),
});

/** The answer's schema (OpenAPI and response check); thing models are the products' own. */
export const areaDevicePageSchema = z.object({
  list: z.array(rowSchema),
  total: z.number(),
  currentPage: z.number(),
  pageSize: z.number(),
  counts: z.object({
    online: z.number(),
    offline: z.number(),
    fault: z.number(),
    alarm: z.number().optional(),
  }),
  products: z.array(z.object({ id: z.string(), productName: z.string(), thingModel: z.unknown() })),
});
