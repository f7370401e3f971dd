import { DEVICE_UPLOAD_CALL, deviceBasicAuth } from '@shuili/contract';
import { drawCatchPhoto } from './images/catch-photo';
import type { PhotoRequest } from './models/physics-model';
import type { Random } from './random';

/** A photo stored by the server: its device file id. */
export interface UploadedPhoto {
  id: string;
  fileName: string;
}

/** `20260526-0310` of an instant (UTC), for a photo's file name. */
function stamp(time: number): string {
  return new Date(time).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

/**
 * A device's camera: draws what a due photo shows (a trap's tray) and uploads it through the
 * server's device upload call with the device's own identity and secret, as a field trap's
 * firmware posts its pictures over HTTP beside its MQTT link.
 */
export async function uploadPhoto(options: {
  uploadUrl: string;
  identity: string;
  secret: string;
  deviceNo: string;
  request: PhotoRequest;
  random: Random;
  time: number;
}): Promise<UploadedPhoto> {
  const photo = drawCatchPhoto(options.random, options.request.insects);
  const fileName = `${options.deviceNo}-${stamp(options.time)}.png`;
  const query = new URLSearchParams({ fileName, fileKind: 'image' });
  const response = await fetch(`${options.uploadUrl}${DEVICE_UPLOAD_CALL}?${query}`, {
    method: 'POST',
    headers: {
      authorization: deviceBasicAuth(options.identity, options.secret),
      'content-type': 'application/octet-stream',
    },
    body: new Uint8Array(photo.png),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`photo upload refused: HTTP ${response.status}`);
  const answer = (await response.json()) as { data?: { id?: string } };
  if (!answer.data?.id) throw new Error('photo upload: no file id in the answer');
  return { id: answer.data.id, fileName };
}
