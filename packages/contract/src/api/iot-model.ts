import { z } from 'zod';
import { thingModelSchema } from '../iot/thing-model';

/** GET /api/iot/product/queryThingModel?serialNo= */
export const thingModelQuerySchema = z.object({
  serialNo: z.string().trim().min(1, { error: 'validation.required' }).max(64),
});

/** A product with its thing model, as the thing-model page reads it. */
export const productThingModelSchema = z.object({
  id: z.string(),
  serialNo: z.string(),
  productName: z.string(),
  deviceKind: z.string(),
  protocol: z.string(),
  thingModel: thingModelSchema,
});
export type ProductThingModel = z.infer<typeof productThingModelSchema>;

/**
 * PUT /api/iot/product/updateThingModel. The model is checked against thingModelSchema by the
 * server, whose 400 names each offending path (thingModel.properties.2.key ...).
 */
export const thingModelUpdateSchema = z.object({
  serialNo: z.string().trim().min(1, { error: 'validation.required' }).max(64),
  thingModel: z.unknown(),
});

/** Uploads: the raw bytes as application/octet-stream, the rest in the query. */
export const DEVICE_FILE_MAX_BYTES = 10 * 1024 * 1024;

export const deviceFileUploadQuerySchema = z.object({
  deviceId: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
  fileName: z.string().trim().min(1, { error: 'validation.required' }).max(255),
  fileKind: z.enum(['image', 'file']).default('file'),
});

export const deviceFileIdSchema = z.object({
  id: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
});

export const DEVICE_FILE_CALLS = {
  upload: '/api/iot/file/uploadDeviceFile',
  download: '/api/iot/file/downloadDeviceFile',
  remove: '/api/iot/file/deleteDeviceFile',
} as const;
