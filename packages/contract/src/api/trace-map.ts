import { TRACE_PATH } from '../entities/trace/trace-targets';
import { z } from 'zod';
import { thingModelSchema } from '../iot/thing-model';

/**
 * The digital map's one call (/traceabilitySystem/digitalMap, docs/traceability.md "Digital
 * map"): the tenant's bases, their plots with outlines and plantings, and the devices serving
 * each plot with their state and latest values, in the shape the area screens keep live.
 */
export const TRACE_MAP_CALLS = {
  /** GET: the whole map of the caller's tenant (devices outside the caller's zones left out). */
  query: `${TRACE_PATH}/map/queryDigitalMap`,
} as const;

const planting = z.object({
  id: z.string(),
  plantingCode: z.string().nullable(),
  cropName: z.string(),
  variety: z.string(),
  sownAt: z.string(),
  expectedHarvestAt: z.string().nullable(),
  /** growing, harvested or ended. */
  state: z.string(),
});

const base = z.object({
  id: z.string(),
  baseName: z.string(),
  village: z.string(),
  /** WGS 84; null when the base has no location. */
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  areaMu: z.number().nullable(),
});

const plot = z.object({
  id: z.string(),
  areaName: z.string(),
  baseId: z.string(),
  /** The outline's outer ring as [lng, lat] positions; null without a valid outline. */
  ring: z.array(z.tuple([z.number(), z.number()])).nullable(),
  areaMu: z.number().nullable(),
  soil: z.string().nullable(),
  /** Newest sowing first; the plot's colour is the first one's state (none: idle). */
  plantings: z.array(planting),
  /** Devices serving the plot that the caller may see (ids into `devices`). */
  deviceIds: z.array(z.string()),
});

/** A device of the map, in the shape the area screens keep live (AreaDevice). */
const device = z.object({
  id: z.string(),
  deviceNo: z.string(),
  deviceName: z.string(),
  online: z.boolean(),
  status: z.number(),
  lastSeen: z.string().nullable(),
  zoneId: z.string().nullable(),
  zoneName: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Highest alarm wanting attention; null for none or a role that may not read alarms. */
  alarmLevel: z.string().nullable(),
  thingModel: thingModelSchema,
  /** Latest value per property key; empty for a role that may not read telemetry. */
  values: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  valueTimes: z.record(z.string(), z.string()),
});

export const traceMapSchema = z.object({
  bases: z.array(base),
  plots: z.array(plot),
  devices: z.array(device),
});
export type TraceMap = z.infer<typeof traceMapSchema>;
export type TraceMapBase = TraceMap['bases'][number];
export type TraceMapPlot = TraceMap['plots'][number];
export type TraceMapPlanting = TraceMapPlot['plantings'][number];
export type TraceMapDevice = TraceMap['devices'][number];
