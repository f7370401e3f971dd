import { z } from 'zod';

// The overview's answer as a zod schema, in a module of its own: the console reads the overview
// through the types of monitor-workbench.ts and never downloads zod for it.

/** The answer's schema (OpenAPI and response check). */
export const workbenchOverviewSchema = z.object({
  generatedAt: z.string(),
  areas: z.array(
    z.object({
      area: z.string(),
      total: z.number(),
      online: z.number(),
      offline: z.number(),
      fault: z.number(),
      alarm: z.number().optional(),
    }),
  ),
  alarms: z
    .object({
      levels: z.record(z.string(), z.number()),
      open: z.number(),
      unacknowledged: z.number(),
      recent: z.array(
        z.object({
          id: z.string(),
          deviceId: z.string().nullable(),
          deviceNo: z.string().nullable(),
          deviceName: z.string().nullable(),
          propertyKey: z.string(),
          level: z.string(),
          value: z.number().nullable(),
          threshold: z.number().nullable(),
          state: z.string(),
          startedAt: z.string(),
          clearedAt: z.string().nullable(),
          acknowledged: z.boolean(),
        }),
      ),
    })
    .optional(),
  commands: z
    .object({
      today: z.number(),
      failedToday: z.number(),
      recent: z.array(
        z.object({
          id: z.string(),
          deviceId: z.string().nullable(),
          deviceNo: z.string().nullable(),
          deviceName: z.string().nullable(),
          name: z.string(),
          params: z.string(),
          status: z.string(),
          username: z.string().nullable(),
          createdAt: z.string(),
          latencyMs: z.number().nullable(),
          result: z.string().nullable(),
        }),
      ),
    })
    .optional(),
  water: z
    .object({
      timeZone: z.string(),
      today: z.number(),
      month: z.number(),
      areas: z.array(z.object({ area: z.string(), today: z.number(), month: z.number() })),
    })
    .optional(),
  map: z.object({
    ids: z.array(z.string()),
    names: z.array(z.string()),
    areas: z.array(z.string()),
    lat: z.array(z.number()),
    lng: z.array(z.number()),
    online: z.array(z.boolean()),
    status: z.array(z.number()),
    alarmLevels: z.array(z.string().nullable()).optional(),
  }),
});
