import { z } from 'zod';

/**
 * POST: a device's own upload of a file or image (a trap's catch photo, a camera's snapshot):
 * raw bytes as application/octet-stream, authenticated with the device's MQTT identity and
 * secret as HTTP Basic credentials (`{tenantCode}:{deviceNo}` : secret). The file lands among
 * the device's files like an operator's upload.
 */
export const DEVICE_UPLOAD_CALL = '/api/iot/device/uploadOwnFile';

export const deviceOwnUploadQuerySchema = z.object({
  fileName: z.string().trim().min(1, { error: 'validation.required' }).max(255),
  fileKind: z.enum(['image', 'file']).default('image'),
});

/** The Authorization header a device sends with its upload. */
export function deviceBasicAuth(identity: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${identity}:${secret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}
