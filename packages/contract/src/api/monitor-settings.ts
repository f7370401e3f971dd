import { z } from 'zod';
import type { AreaSettingValue } from '../areas/area-settings';
import { AREAS } from '../areas/areas';

/** The area settings' calls (server routes, web client, grants). */
export const AREA_SETTING_CALLS = {
  query: '/api/monitor/setting/queryAreaSetting',
  update: '/api/monitor/setting/updateAreaSetting',
} as const;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));
const areaCodes = AREAS.map((area) => area.code) as [string, ...string[]];

/** A setting's key as areas declare them (AreaSettingDef.key). */
const SETTING_KEY = /^[a-z][A-Za-z0-9_]{0,63}$/;
/** Most values one update takes (an area declares a few). */
const MAX_SETTINGS = 50;

/** Most devices one settings page answers. */
export const AREA_SETTING_MAX_PAGE_SIZE = 500;

/** GET /api/monitor/setting/queryAreaSetting: one device's settings, or every device's of the area. */
export const areaSettingQuerySchema = z.object({
  area: z.enum(areaCodes),
  deviceId: id.optional(),
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(AREA_SETTING_MAX_PAGE_SIZE).default(100),
});
export type AreaSettingQuery = z.infer<typeof areaSettingQuerySchema>;

/**
 * POST /api/monitor/setting/updateAreaSetting: values by setting key (checked against the area's
 * declaration: checkAreaSettings); `null` resets one to its default. All or nothing.
 */
export const updateAreaSettingSchema = z.object({
  area: z.enum(areaCodes),
  deviceId: id,
  values: z
    .record(z.string().regex(SETTING_KEY, invalid), z.unknown())
    .refine((values) => Object.keys(values).length <= MAX_SETTINGS, invalid),
});
export type UpdateAreaSettingInput = z.infer<typeof updateAreaSettingSchema>;

/** One device's settings: every declared key with its value, its own or the default. */
export const areaDeviceSettingsSchema = z.object({
  deviceId: z.string(),
  deviceNo: z.string(),
  deviceName: z.string().nullable(),
  values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  /** Keys the device has a value of its own for (the rest follow the declaration's default). */
  own: z.array(z.string()),
  /** When one of its values last changed, and by whom. */
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type AreaDeviceSettings = z.infer<typeof areaDeviceSettingsSchema> & {
  values: Record<string, AreaSettingValue>;
};
