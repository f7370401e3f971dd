import { z } from 'zod';
import type { CameraStreamType } from '../entities/video/camera.entity';

/** The video area's own calls (spec §7 "Cameras": queryAllCamera; the snapshot fallback). */
export const VIDEO_CALLS = {
  /** GET: every enabled camera of the caller's zones, for the live grid. */
  queryAll: '/api/video/camera/queryAllCamera',
  /**
   * POST ?id=: the server fetches the camera's snapshot URL and stores the image among its
   * device's images (when the browser may not read the stream's pixels).
   */
  snapshot: '/api/video/camera/snapshotCamera',
} as const;

/** The demo clip the server serves itself (a looping test pattern, apps/server/assets/video). */
export const DEMO_CAMERA_STREAM = '/media/video/demo/index.m3u8';

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));

/** GET queryAllCamera: optionally the cameras of one zone and the zones below it. */
export const cameraListQuerySchema = z.object({ zoneId: id.optional() });

/** POST snapshotCamera. */
export const cameraSnapshotQuerySchema = z.object({ id });

/** One camera of the grid (a field the role's data permissions hide is null). */
export interface CameraListItem {
  id: string;
  cameraName: string;
  zoneId: string | null;
  zoneName: string | null;
  deviceId: string | null;
  deviceName: string | null;
  deviceNo: string | null;
  online: boolean | null;
  streamType: CameraStreamType | null;
  streamUrl: string | null;
  snapshotUrl: string | null;
  lng: number | null;
  lat: number | null;
}

export const cameraListItemSchema = z.object({
  id: z.string(),
  cameraName: z.string(),
  zoneId: z.string().nullable(),
  zoneName: z.string().nullable(),
  deviceId: z.string().nullable(),
  deviceName: z.string().nullable(),
  deviceNo: z.string().nullable(),
  online: z.boolean().nullable(),
  streamType: z.enum(['hls', 'flv']).nullable(),
  streamUrl: z.string().nullable(),
  snapshotUrl: z.string().nullable(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
});

/** What a stored snapshot answers: the device image's id. */
export const cameraSnapshotSchema = z.object({ fileId: z.string(), deviceId: z.string() });
