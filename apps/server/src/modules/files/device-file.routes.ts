import {
  DEVICE_FILE_CALLS,
  deviceFileIdSchema,
  deviceFileUploadQuerySchema,
  iotDeviceFileEntity,
  label,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { notFound } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { DOWNLOAD_CSP } from '../../http/security-headers';
import { deviceFileRepo } from './device-file.repo';
import { fieldError, receiveDeviceFile } from './device-file-receive';
import type { FileStorage } from './file-storage';
import { downloadTypeOf } from './upload-policy';

const fields = iotDeviceFileEntity.fields;
const fieldLabels = {
  deviceId: fields.deviceId!,
  fileName: fields.originalName!,
  fileKind: fields.fileKind!,
  file: { label: label('File', '文件', '檔案') },
  id: { label: label('Record', '记录', '記錄') },
};

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
      return receiveDeviceFile(
        deps.storage,
        {
          body: request.body,
          fileName: request.query.fileName,
          fileKind,
          contentLength: request.headers['content-length'],
        },
        async () => {
          const exists = await deps.db.tenant(auth, (sql) =>
            deviceFileRepo.deviceExists(sql, deviceId),
          );
          return exists ? undefined : fieldError('deviceId', 'validation.refMissing');
        },
        async (file) => {
          const id = await deps.db.tenant(auth, (sql) =>
            deviceFileRepo.insert(sql, auth.tenantId, {
              deviceId,
              fileKind,
              originalName: file.fileName,
              contentType: file.contentType,
              sizeKb: file.sizeKb,
              storageKey: file.storageKey,
              userId: auth.userId,
            }),
          );
          return ok({ id, contentType: file.contentType });
        },
      );
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
