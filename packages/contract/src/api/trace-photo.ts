import { z } from 'zod';
import { TRACE_PATH } from '../entities/trace/trace-targets';

/**
 * Photos of traceability bases and growth records (docs/traceability.md "Photos"): uploaded as
 * raw bytes like a species' picture (an image, checked by its bytes, at most
 * DEVICE_FILE_MAX_BYTES), listed, downloaded and deleted by the photo's id.
 */
export const TRACE_PHOTO_CALLS = {
  /** GET ?id= (a base): its photos, oldest first. */
  baseList: `${TRACE_PATH}/base/queryBasePhoto`,
  /** POST ?id=&fileName= (a base), raw bytes as application/octet-stream. */
  baseUpload: `${TRACE_PATH}/base/uploadBasePhoto`,
  /** GET ?id= (a growth record): its photos, oldest first. */
  growthList: `${TRACE_PATH}/growthRecord/queryGrowthRecordPhoto`,
  /** POST ?id=&fileName= (a growth record), raw bytes. */
  growthUpload: `${TRACE_PATH}/growthRecord/uploadGrowthRecordPhoto`,
  /** GET (or POST) ?id= (a photo): its bytes. */
  download: `${TRACE_PATH}/photo/downloadTracePhoto`,
  /** POST { id } (a photo). */
  delete: `${TRACE_PATH}/photo/deleteTracePhoto`,
} as const;

/** Most photos one base or growth record keeps. */
export const TRACE_PHOTOS_MAX = 20;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));

export const tracePhotoIdSchema = z.object({ id });
export const tracePhotoUploadSchema = z.object({
  id,
  fileName: z.string().trim().min(1, { error: 'validation.required' }).max(255),
});

export const tracePhotoSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  sizeKb: z.number(),
  createdAt: z.string(),
});
export type TracePhoto = z.infer<typeof tracePhotoSchema>;
