import {
  INSECT_CALLS,
  label,
  latestTrapPhotoSchema,
  latestTrapPhotosQuerySchema,
  speciesPictureQuerySchema,
  speciesPictureUploadSchema,
  trapPhotoDaySchema,
  trapPhotoDaysQuerySchema,
  trapPhotosQuerySchema,
  trapPhotosSchema,
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
import { TrapGallery } from './trap-gallery';
import { SpeciesPictures } from './insect-species-picture';

const fieldLabels = {
  deviceId: { label: label('Device', '设备', '設備') },
  deviceIds: { label: label('Devices', '设备', '設備') },
  day: { label: label('Day', '日期', '日期') },
  id: { label: label('Species', '虫种', '蟲種') },
  fileName: { label: label('File name', '文件名', '檔案名稱') },
  file: { label: label('Picture', '图片', '圖片') },
};

/** The insect traps' galleries and the species catalogue's pictures. */
export async function insectRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; storage: FileStorage },
) {
  // Scoped to these routes: a picture's bytes are handed over unread and checked as they stream.
  fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };
  const gallery = new TrapGallery(deps.db);
  const pictures = new SpeciesPictures(deps.db, deps.storage);

  app.get(INSECT_CALLS.photos, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "A trap's photos of one day (tenant time zone) with species counts and their sums",
      querystring: trapPhotosQuerySchema,
      response: { 200: envelopeOf(trapPhotosSchema) },
    },
    handler: async (request) =>
      ok(await gallery.photos(authOf(request), request.query.deviceId, request.query.day)),
  });

  app.get(INSECT_CALLS.photoDays, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: 'The days a trap has photos on, newest first',
      querystring: trapPhotoDaysQuerySchema,
      response: { 200: envelopeOf(z.array(trapPhotoDaySchema)) },
    },
    handler: async (request) => ok(await gallery.days(authOf(request), request.query.deviceId)),
  });

  app.get(INSECT_CALLS.latestPhotos, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: 'The newest photo of each of some traps',
      querystring: latestTrapPhotosQuerySchema,
      response: { 200: envelopeOf(z.array(latestTrapPhotoSchema)) },
    },
    handler: async (request) => ok(await gallery.latest(authOf(request), request.query.deviceIds)),
  });

  // POST as well: the console's download helper posts.
  app.route({
    method: ['GET', 'POST'],
    url: INSECT_CALLS.speciesPicture,
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "A species' picture",
      querystring: speciesPictureQuerySchema,
    },
    handler: async (request, reply) => {
      const stream = await pictures.read(authOf(request), request.query.id);
      if (!stream) throw notFound('error.recordNotFound');
      // Served like a device file: never sniffed, never able to run or frame anything.
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', 'attachment')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', DOWNLOAD_CSP)
        .header('cache-control', 'private, max-age=300')
        .send(stream);
    },
  });

  app.post(INSECT_CALLS.uploadSpeciesPicture, {
    config,
    schema: {
      tags,
      summary: "Sets a species' picture (raw bytes, an image of at most 10 MB)",
      querystring: speciesPictureUploadSchema,
      response: { 200: envelopeOf(z.object({ id: z.string() })) },
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
        async () =>
          (await pictures.exists(auth, id)) ? undefined : fieldError('id', 'validation.refMissing'),
        async (file) => {
          if (!(await pictures.attach(auth, id, file)))
            throw fieldError('id', 'validation.refMissing');
          return ok({ id });
        },
      );
    },
  });
}
