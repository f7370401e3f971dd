import { DEVICE_FILE_MAX_BYTES, type DeviceFileKind } from '@shuili/contract';
import { Readable } from 'node:stream';
import { AppError } from '../../http/app-error';
import type { FileStorage } from './file-storage';
import { discard, guarded, UploadGuard, UploadRejected } from './upload-guard';
import { declaredTypeOf, extensionsOf, sanitizeFileName } from './upload-policy';

const MAX_MB = DEVICE_FILE_MAX_BYTES / 1024 / 1024;

export const fieldError = (field: string, key: string, params?: Record<string, string | number>) =>
  new AppError(400, key, { params, fields: [{ field, key, params }] });

/** What an upload says of itself before its bytes are read. */
export interface IncomingFile {
  body: unknown;
  fileName: string;
  fileKind: DeviceFileKind;
  contentLength: string | undefined;
}

/** A received file as the device file table keeps it. */
export interface ReceivedFile {
  fileName: string;
  fileKind: DeviceFileKind;
  contentType: string;
  sizeKb: number;
  storageKey: string;
}

/**
 * Receives the bytes of a device file, whoever sends them (an operator's upload, the device's
 * own): everything that can be judged before reading the bytes is, so a refused upload costs
 * nothing; the content must be what its name says (upload-guard.ts); `accept` decides whether
 * the device may have it (run before the bytes are stored) and `record` writes the row. A
 * refusal reads and drops the rest of the body (up to a limit) rather than closing the
 * connection at once, which a client still sending would see as a broken pipe instead of the
 * answer. No row, no bytes: a failed `record` removes what was stored.
 */
export async function receiveDeviceFile<T>(
  storage: FileStorage,
  incoming: IncomingFile,
  accept: () => Promise<AppError | undefined>,
  record: (file: ReceivedFile) => Promise<T>,
): Promise<T> {
  const body = incoming.body;
  if (!(body instanceof Readable)) throw fieldError('file', 'validation.required');
  const refuse = (field: string, key: string, params?: Record<string, string | number>) => {
    discard(body);
    return fieldError(field, key, params);
  };
  const fileName = sanitizeFileName(incoming.fileName);
  if (!fileName) throw refuse('fileName', 'validation.invalid');
  const type = declaredTypeOf(fileName, incoming.fileKind);
  if (!type)
    throw refuse('fileName', 'validation.fileTypeNotAllowed', {
      types: extensionsOf(incoming.fileKind),
    });
  if (Number(incoming.contentLength ?? 0) > DEVICE_FILE_MAX_BYTES)
    throw refuse('file', 'validation.fileTooLarge', { max: MAX_MB });
  const refused = await accept();
  if (refused) {
    discard(body);
    throw refused;
  }
  const guard = new UploadGuard(type, DEVICE_FILE_MAX_BYTES, MAX_MB);
  let storageKey: string;
  try {
    storageKey = await storage.put(guarded(body, guard), { contentType: type.contentType });
  } catch (error) {
    if (error instanceof UploadRejected) throw fieldError('file', error.key, error.params);
    throw error;
  }
  try {
    return await record({
      fileName,
      fileKind: incoming.fileKind,
      contentType: type.contentType,
      sizeKb: Math.ceil(guard.size / 1024),
      storageKey,
    });
  } catch (error) {
    await storage.remove(storageKey);
    throw error;
  }
}
