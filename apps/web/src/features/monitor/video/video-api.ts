import { VIDEO_CALLS, type CameraListItem } from '@shuili/contract';
import { http } from '../../../lib/http';

/** The enabled cameras of the user's zones, optionally of one zone and those below it. */
export const camerasOf = (zoneId: string | undefined, signal?: AbortSignal) =>
  http.get<CameraListItem[]>(VIDEO_CALLS.queryAll, { params: { zoneId }, signal });

/**
 * Stores a snapshot among the camera device's images: the captured frame, or (none given) the
 * picture the server fetches from the camera's snapshot URL.
 */
export const storeSnapshot = (cameraId: string, frame: Blob | undefined) =>
  http.post<{ fileId: string; deviceId: string }>(VIDEO_CALLS.snapshot, {
    params: { id: cameraId },
    ...(frame ? { raw: frame } : {}),
  });
