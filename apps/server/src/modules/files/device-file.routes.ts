import {
  DEVICE_FILE_CALLS,
  DEVICE_FILE_MAX_BYTES,
  deviceFileIdSchema,
  deviceFileUploadQuerySchema,
  iotDeviceFileEntity,
  label,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError, notFound } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { deviceFileRepo } from './device-file.repo';
import type { FileStorage } from './file-storage';
import { fileTypeOf, imageTypeOf } from './image-type';

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
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
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
  // Scoped to these routes: the rest of the API keeps refusing bodies that are not JSON. The
  // limit leaves room above the maximum so an oversize file gets a 400 naming the field.
  fastify.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: DEVICE_FILE_MAX_BYTES + 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(DEVICE_FILE_CALLS.upload, {
    config: { permission: 'granted', fieldLabels },
    bodyLimit: DEVICE_FILE_MAX_BYTES + 1024 * 1024,
    schema: {
      tags: ['IotDeviceFile'],
      summary: 'Uploads a file or image of a device (raw bytes, at most 10 MB)',
      querystring: deviceFileUploadQuerySchema,
      response: { 200: envelopeOf(z.object({ id: z.string(), contentType: z.string() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { deviceId, fileName, fileKind } = request.query;
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw fieldError('file', 'validation.required');
      if (body.length > DEVICE_FILE_MAX_BYTES)
        throw fieldError('file', 'validation.fileTooLarge', { max: MAX_MB });
      // Images are judged by their bytes: a renamed script is not an image.
      if (fileKind === 'image' && !imageTypeOf(body))
        throw fieldError('file', 'validation.notAnImage');
      const exists = await deps.db.tenant(auth.tenantId, (sql) =>
        deviceFileRepo.deviceExists(sql, deviceId),
      );
      if (!exists) throw fieldError('deviceId', 'validation.refMissing');
      const contentType = fileTypeOf(body, fileName);
      const storageKey = await deps.storage.put(body, { contentType });
      try {
        const id = await deps.db.tenant(auth.tenantId, (sql) =>
          deviceFileRepo.insert(sql, auth.tenantId, {
            deviceId,
            fileKind,
            originalName: fileName,
            contentType,
            sizeKb: Math.ceil(body.length / 1024),
            storageKey,
            userId: auth.userId,
          }),
        );
        return ok({ id, contentType });
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
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['IotDeviceFile'],
      summary: 'Downloads a device file (images inline, other files as attachments)',
      querystring: deviceFileIdSchema,
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const file = await deps.db.tenant(auth.tenantId, (sql) =>
        deviceFileRepo.byId(sql, request.query.id),
      );
      if (!file) throw notFound('error.recordNotFound');
      const stream = await deps.storage.get(file.storageKey);
      if (!stream) throw notFound('error.recordNotFound');
      const image = file.contentType.startsWith('image/');
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          disposition(image ? 'inline' : 'attachment', file.originalName),
        )
        .header('x-content-type-options', 'nosniff')
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
      const key = await deps.db.tenant(auth.tenantId, (sql) =>
        deviceFileRepo.remove(sql, request.query.id),
      );
      if (!key) throw notFound('error.recordNotFound');
      await deps.storage.remove(key);
      return ok({ deleted: 1 });
    },
  });
}
