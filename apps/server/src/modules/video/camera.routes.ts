import {
  cameraEntity,
  cameraListItemSchema,
  cameraListQuerySchema,
  cameraSnapshotQuerySchema,
  cameraSnapshotSchema,
  DEVICE_FILE_MAX_BYTES,
  label,
  VIDEO_CALLS,
  type CameraListItem,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { DataFieldService } from '../../entity/data-field.service';
import { AppError, notFound } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { storeDeviceImage } from '../files/device-images';
import type { FileStorage } from '../files/file-storage';
import { cameraRepo } from './camera.repo';
import { fetchSnapshot, SnapshotRefused, type SnapshotSource } from './snapshot-fetch';

const dataFields = new DataFieldService();

/** Camera fields the role's data permissions on /videoManagement may hide (then null). */
const HIDEABLE = ['zoneId', 'deviceId', 'streamType', 'streamUrl', 'snapshotUrl', 'lng', 'lat'];
const LINKED: Record<string, Array<keyof CameraListItem>> = {
  zoneId: ['zoneName'],
  deviceId: ['deviceName', 'deviceNo', 'online'],
};

const fieldLabels = {
  id: cameraEntity.fields.cameraName!,
  snapshotUrl: cameraEntity.fields.snapshotUrl!,
  deviceId: cameraEntity.fields.deviceId!,
  file: { label: label('Snapshot', '抓拍图片', '抓拍圖片') },
};

const fieldError = (field: string, key: string, params?: Record<string, string | number>) =>
  new AppError(400, key, { params, fields: [{ field, key, params }] });

/** "East gate 2026-11-26 10-42-07": the stored image's name (its extension follows its type). */
function snapshotName(cameraName: string): string {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-');
  return `${cameraName.replace(/[\\/:*?"<>|\s]+/g, '_')}_${at}`;
}

/**
 * The video area's calls besides the camera entity's generic ones:
 * - GET queryAllCamera (spec §7): the enabled cameras the caller may see, for the live grid.
 *   Row-level security confines a user with zones to those zones' cameras; the role's data
 *   permissions on the camera screen hide fields as the camera list does.
 * - POST snapshotCamera?id=: stores a snapshot among the images of the camera's device. The
 *   browser sends the frame it captured (image/jpeg or image/png); with no body, the server
 *   fetches the camera's snapshot URL itself (a stream whose origin forbids reading its pixels),
 *   guarded against server-side request forgery (snapshot-fetch.ts).
 */
export async function cameraRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; storage: FileStorage; snapshots: SnapshotSource },
) {
  // Scoped to these routes: a captured frame arrives as raw bytes (the console's upload type, or
  // the image's own); its type is judged from the bytes.
  fastify.addContentTypeParser(
    ['image/jpeg', 'image/png', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: DEVICE_FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(VIDEO_CALLS.queryAll, {
    config: { permission: 'granted', fieldLabels: { zoneId: cameraEntity.fields.zoneId! } },
    schema: {
      tags: ['Camera'],
      summary: "The enabled cameras of the caller's zones (optionally of one zone and below)",
      querystring: cameraListQuerySchema,
      response: { 200: envelopeOf(z.array(cameraListItemSchema)) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { rows, visible } = await deps.db.tenant(auth, async (sql) => ({
        visible: await dataFields.visible(sql, auth.activeRole, cameraEntity.menuCode),
        rows: await cameraRepo.list(sql, request.query.zoneId),
      }));
      if (visible)
        for (const camera of rows)
          for (const field of HIDEABLE)
            if (!visible.has(field))
              for (const name of [field, ...(LINKED[field] ?? [])])
                (camera as unknown as Record<string, unknown>)[name] = null;
      return ok(rows);
    },
  });

  app.post(VIDEO_CALLS.snapshot, {
    config: { permission: 'granted', fieldLabels },
    bodyLimit: DEVICE_FILE_MAX_BYTES,
    schema: {
      tags: ['Camera'],
      summary:
        "Stores a snapshot (the posted frame, or the camera's snapshot URL) in its device images",
      querystring: cameraSnapshotQuerySchema,
      response: { 200: envelopeOf(cameraSnapshotSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const camera = await deps.db.tenant(auth, (sql) =>
        cameraRepo.forSnapshot(sql, request.query.id),
      );
      if (!camera) throw notFound('error.recordNotFound');
      if (!camera.deviceId) throw fieldError('deviceId', 'video.noDevice');
      let bytes: Buffer;
      if (Buffer.isBuffer(request.body) && request.body.length > 0) {
        bytes = request.body;
      } else {
        if (!camera.snapshotUrl) throw fieldError('snapshotUrl', 'video.noSnapshotUrl');
        try {
          bytes = await fetchSnapshot(camera.snapshotUrl, deps.snapshots);
        } catch (error) {
          if (error instanceof SnapshotRefused)
            throw fieldError('snapshotUrl', error.key, error.params);
          throw error;
        }
      }
      const stored = await storeDeviceImage({ db: deps.db, storage: deps.storage }, auth, {
        deviceId: camera.deviceId,
        baseName: snapshotName(camera.cameraName),
        bytes,
      });
      if (!stored) throw fieldError('file', 'validation.notAnImage');
      return ok({ fileId: stored.id, deviceId: camera.deviceId });
    },
  });
}
