import {
  DEVICE_FILE_CALLS,
  DEVICE_FILE_MAX_BYTES,
  deviceFileIdSchema,
  deviceFileUploadQuerySchema,
  iotDeviceFileEntity,
  label,
} from '@shuili/contract';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError, notFound } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { DOWNLOAD_CSP } from '../../http/security-headers';
import { deviceFileRepo } from './device-file.repo';
import type { FileStorage } from './file-storage';
import { discard, guarded, UploadGuard, UploadRejected } from './upload-guard';
import { declaredTypeOf, downloadTypeOf, extensionsOf, sanitizeFileName } from './upload-policy';

const fields = iotDeviceFileEntity.fields;
const fieldLabels = {
  deviceId: fields.deviceId!,
  fileName: fields.originalName!,
  fileKind: fields.fileKind!,
  file: { label: label('File', '文件', '檔案') },
  id: { label: label('Record', '记录', '記錄') },
};

const MAX_MB = DEVICE_FILE_MAX_BYTES / 1024 / 1024;

const fieldError = (field: string, key: string, params?: Record<string, string | number>) =>
  new AppError(400, key, { params, fields: [{ field, key, params }] });

/** A header-safe Content-Disposition for a user's file name (RFC 6266 / 5987). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Device files and images: upload (raw bytes, application/octet-stream; the name, kind and
 * device in the query, since no multipart parser is installed), download and delete. The rows
 * are listed through the IotDeviceFile entity.
 */
export async function deviceFileRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; storage: FileStorage },
) {
  // Scoped to these routes: the rest of the API keeps refusing bodies that are not JSON. The body
  // is handed over unread: the upload route checks and stores it as it streams (upload-guard.ts).
  fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(DEVICE_FILE_CALLS.upload, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['IotDeviceFile'],
      summary: 'Uploads a file or image of a device (raw bytes, at most 10 MB)',
      querystring: deviceFileUploadQuerySchema,
      response: { 200: envelopeOf(z.object({ id: z.string(), contentType: z.string() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { deviceId, fileKind } = request.query;
      const body = request.body;
      if (!(body instanceof Readable)) throw fieldError('file', 'validation.required');
      // Everything that can be judged before reading the bytes is, so a refused upload costs
      // nothing. A refusal reads and drops the rest of the body (up to a limit, upload-guard.ts)
      // rather than closing the connection at once, which a client still sending would see as a
      // broken pipe instead of the answer.
      const refuse = (field: string, key: string, params?: Record<string, string | number>) => {
        discard(body);
        return fieldError(field, key, params);
      };
      const fileName = sanitizeFileName(request.query.fileName);
      if (!fileName) throw refuse('fileName', 'validation.invalid');
      const type = declaredTypeOf(fileName, fileKind);
      if (!type)
        throw refuse('fileName', 'validation.fileTypeNotAllowed', {
          types: extensionsOf(fileKind),
        });
      if (Number(request.headers['content-length'] ?? 0) > DEVICE_FILE_MAX_BYTES)
        throw refuse('file', 'validation.fileTooLarge', { max: MAX_MB });
      const exists = await deps.db.tenant(auth, (sql) =>
        deviceFileRepo.deviceExists(sql, deviceId),
      );
      if (!exists) throw refuse('deviceId', 'validation.refMissing');

      const guard = new UploadGuard(type, DEVICE_FILE_MAX_BYTES, MAX_MB);
      let storageKey: string;
      try {
        storageKey = await deps.storage.put(guarded(body, guard), {
          contentType: type.contentType,
        });
      } catch (error) {
        if (error instanceof UploadRejected) throw fieldError('file', error.key, error.params);
        throw error;
      }
      try {
        const id = await deps.db.tenant(auth, (sql) =>
          deviceFileRepo.insert(sql, auth.tenantId, {
            deviceId,
            fileKind,
            originalName: fileName,
            contentType: type.contentType,
            sizeKb: Math.ceil(guard.size / 1024),
            storageKey,
            userId: auth.userId,
          }),
        );
        return ok({ id, contentType: type.contentType });
      } catch (error) {
        // No row, no bytes: nothing half-written stays behind.
        await deps.storage.remove(storageKey);
        throw error;
      }
    },
  });

  // POST as well: the console's download helper (exports) posts.
  app.route({
    method: ['GET', 'POST'],
    url: DEVICE_FILE_CALLS.download,
    config: { permission: 'granted', fieldLabels, reads: true },
    schema: {
      tags: ['IotDeviceFile'],
      summary: 'Downloads a device file (as an attachment)',
      querystring: deviceFileIdSchema,
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const file = await deps.db.tenant(auth, (sql) => deviceFileRepo.byId(sql, request.query.id));
      if (!file) throw notFound('error.recordNotFound');
      const stream = await deps.storage.get(file.storageKey);
      if (!stream) throw notFound('error.recordNotFound');
      // Always an attachment, never sniffed, never able to run or frame anything: whatever the
      // bytes are, a browser saves them instead of rendering them in the console's origin.
      return reply
        .header('content-type', downloadTypeOf(file.contentType))
        .header('content-disposition', attachment(file.originalName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', DOWNLOAD_CSP)
        .header('cache-control', 'private, max-age=300')
        .send(stream);
    },
  });

  app.post(DEVICE_FILE_CALLS.remove, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['IotDeviceFile'],
      summary: 'Deletes a device file and its bytes',
      querystring: deviceFileIdSchema,
      response: { 200: envelopeOf(z.object({ deleted: z.number() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const key = await deps.db.tenant(auth, (sql) => deviceFileRepo.remove(sql, request.query.id));
      if (!key) throw notFound('error.recordNotFound');
      await deps.storage.remove(key);
      return ok({ deleted: 1 });
    },
  });
}
