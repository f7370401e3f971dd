import {
  label,
  TRACE_PHOTO_CALLS,
  tracePhotoIdSchema,
  tracePhotoSchema,
  tracePhotoUploadSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/database';
import { notFound } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { DOWNLOAD_CSP } from '../../../http/security-headers';
import { fieldError, receiveDeviceFile } from '../../files/device-file-receive';
import type { FileStorage } from '../../files/file-storage';
import { TracePhotos, type PhotoOwner } from './trace-photos';

const photoLabels = {
  fileName: { label: label('File name', '文件名', '檔案名稱') },
  file: { label: label('Photo', '照片', '照片') },
};
const OWNER_LABELS: Record<PhotoOwner, ReturnType<typeof label>> = {
  base: label('Base', '基地', '基地'),
  growthRecord: label('Growth record', '生长记录', '生長記錄'),
};

/**
 * Photos of bases and growth records (docs/traceability.md "Photos"): uploaded as raw bytes like
 * a species' picture (an image by its bytes, at most DEVICE_FILE_MAX_BYTES), listed, served to
 * signed-in callers as inert bytes, deleted.
 */
export async function tracePhotoRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; storage: FileStorage },
) {
  // Scoped to these routes: a photo's bytes are handed over unread and checked as they stream.
  fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['trace'];
  const photos = new TracePhotos(deps.db, deps.storage);

  const ownerRoutes = (owner: PhotoOwner, listUrl: string, uploadUrl: string) => {
    const fieldLabels = { ...photoLabels, id: { label: OWNER_LABELS[owner] } };
    const config = { permission: 'granted' as const, fieldLabels };
    app.get(listUrl, {
      config: { ...config, reads: true },
      schema: {
        tags,
        summary: `The photos of a ${owner === 'base' ? 'base' : 'growth record'}, oldest first`,
        querystring: tracePhotoIdSchema,
        response: { 200: envelopeOf(z.array(tracePhotoSchema)) },
      },
      handler: async (request) => ok(await photos.list(authOf(request), owner, request.query.id)),
    });

    app.post(uploadUrl, {
      config,
      schema: {
        tags,
        summary: `Adds a photo to a ${owner === 'base' ? 'base' : 'growth record'} (raw bytes, an image of at most 10 MB)`,
        querystring: tracePhotoUploadSchema,
        response: { 200: envelopeOf(tracePhotoSchema) },
      },
      handler: async (request) => {
        const auth = authOf(request);
        const { id, fileName } = request.query;
        return receiveDeviceFile(
          deps.storage,
          {
            body: request.body,
            fileName,
            fileKind: 'image',
            contentLength: request.headers['content-length'],
          },
          () => photos.refusal(auth, owner, id),
          async (file) => ok(await photos.attach(auth, owner, id, file)),
        );
      },
    });
  };
  ownerRoutes('base', TRACE_PHOTO_CALLS.baseList, TRACE_PHOTO_CALLS.baseUpload);
  ownerRoutes('growthRecord', TRACE_PHOTO_CALLS.growthList, TRACE_PHOTO_CALLS.growthUpload);

  const photoConfig = {
    permission: 'granted' as const,
    fieldLabels: { id: { label: label('Photo', '照片', '照片') } },
  };

  // POST as well: the console's download helper posts.
  app.route({
    method: ['GET', 'POST'],
    url: TRACE_PHOTO_CALLS.download,
    config: { ...photoConfig, reads: true },
    schema: { tags, summary: "A base's or growth record's photo", querystring: tracePhotoIdSchema },
    handler: async (request, reply) => {
      const photo = await photos.read(authOf(request), request.query.id);
      if (!photo) throw notFound('error.recordNotFound');
      // Served like a device file: never sniffed, never able to run or frame anything.
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', 'attachment')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', DOWNLOAD_CSP)
        .header('cache-control', 'private, max-age=300')
        .send(photo.stream);
    },
  });

  app.post(TRACE_PHOTO_CALLS.delete, {
    config: photoConfig,
    schema: {
      tags,
      summary: "Deletes a base's or growth record's photo",
      body: tracePhotoIdSchema,
      response: { 200: envelopeOf(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      const { id } = request.body;
      if (!(await photos.remove(authOf(request), id)))
        throw fieldError('id', 'validation.refMissing');
      return ok({ id });
    },
  });
}
