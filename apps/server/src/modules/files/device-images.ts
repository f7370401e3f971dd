import type { Database } from '../../db/database';
import type { AuthContext } from '../../http/request-context';
import { deviceFileRepo } from './device-file.repo';
import type { FileStorage } from './file-storage';
import { imageTypeOf } from './image-type';

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/webp': 'webp',
};

/**
 * Stores an image among a device's images (what /imageList shows), as the caller: another
 * module's way in to the device files (a camera's snapshot). Answers undefined when the bytes are
 * no accepted image; the type comes from the bytes, and the name gets its extension. Nothing
 * half-written stays behind: bytes without their row are removed again.
 */
export async function storeDeviceImage(
  deps: { db: Database; storage: FileStorage },
  auth: AuthContext,
  image: { deviceId: string; baseName: string; bytes: Buffer },
): Promise<{ id: string; contentType: string } | undefined> {
  const contentType = imageTypeOf(image.bytes);
  if (!contentType) return undefined;
  const storageKey = await deps.storage.put(image.bytes, { contentType });
  try {
    const id = await deps.db.tenant(auth, (sql) =>
      deviceFileRepo.insert(sql, auth.tenantId, {
        deviceId: image.deviceId,
        fileKind: 'image',
        originalName: `${image.baseName}.${EXTENSIONS[contentType]}`,
        contentType,
        sizeKb: Math.ceil(image.bytes.length / 1024),
        storageKey,
        userId: auth.userId,
      }),
    );
    return { id, contentType };
  } catch (error) {
    await deps.storage.remove(storageKey);
    throw error;
  }
}
