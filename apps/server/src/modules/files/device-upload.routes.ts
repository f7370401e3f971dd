import {
  DEVICE_UPLOAD_CALL,
  deviceOwnUploadQuerySchema,
  iotDeviceFileEntity,
  label,
  parseDeviceIdentity,
} from '@shuili/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { AuthBusyError } from '../../mqtt/auth-gate';
import type { DeviceSecretVerifier } from '../../mqtt/mqtt-authenticator';
import { receiveDeviceFile } from './device-file-receive';
import { deviceFileRepo } from './device-file.repo';
import type { FileStorage } from './file-storage';

const fields = iotDeviceFileEntity.fields;
const fieldLabels = {
  fileName: fields.originalName!,
  fileKind: fields.fileKind!,
  file: { label: label('File', '文件', '檔案') },
};

/** The device an upload comes from: its Basic credentials checked like its MQTT connection. */
async function uploadingDevice(
  request: FastifyRequest,
  devices: DeviceSecretVerifier,
): Promise<{ deviceId: string } | undefined> {
  const header = request.headers.authorization ?? '';
  const match = /^Basic ([A-Za-z0-9+/=]{1,700})$/.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.lastIndexOf(':');
  const identity = parseDeviceIdentity(decoded.slice(0, Math.max(colon, 0)));
  const secret = decoded.slice(colon + 1);
  if (!identity || !secret || secret.length > 256) return undefined;
  try {
    return await devices.verify(identity.tenantCode, identity.deviceNo, secret);
  } catch (error) {
    if (error instanceof AuthBusyError) throw new AppError(503, 'error.serverBusy');
    throw error;
  }
}

/**
 * A device's own upload (a trap's catch photo, a camera's snapshot: docs/iot.md "Device
 * files"): the device signs in with the identity and secret it connects to the broker with, so a
 * revoked or rotated secret, a deleted device or a suspended tenant uploads nothing, and a device
 * can only ever add files to itself. The bytes are checked and stored like an operator's upload.
 */
export async function deviceUploadRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; storage: FileStorage; devices: DeviceSecretVerifier },
) {
  // Scoped to this route: the body is handed over unread and checked as it streams.
  fastify.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(DEVICE_UPLOAD_CALL, {
    // Public to the user guard: the device's own credentials are checked below.
    config: { permission: 'public', fieldLabels },
    schema: {
      tags: ['IotDeviceFile'],
      summary: "A device's upload of its own file or image (HTTP Basic: identity and secret)",
      querystring: deviceOwnUploadQuerySchema,
      response: { 200: envelopeOf(z.object({ id: z.string(), contentType: z.string() })) },
    },
    handler: async (request, reply) => {
      let device: { deviceId: string } | undefined;
      let tenantId: string | undefined;
      return receiveDeviceFile(
        deps.storage,
        {
          body: request.body,
          fileName: request.query.fileName,
          fileKind: request.query.fileKind,
          contentLength: request.headers['content-length'],
        },
        async () => {
          device = await uploadingDevice(request, deps.devices);
          if (device) tenantId = await deviceFileRepo.tenantOfDevice(deps.db, device.deviceId);
          if (device && tenantId) return undefined;
          void reply.header('www-authenticate', 'Basic realm="devices"');
          return new AppError(401, 'auth.deviceCredentials');
        },
        async (file) => {
          const id = await deps.db.tenant(tenantId!, (sql) =>
            deviceFileRepo.insert(sql, tenantId!, {
              deviceId: device!.deviceId,
              fileKind: file.fileKind,
              originalName: file.fileName,
              contentType: file.contentType,
              sizeKb: file.sizeKb,
              storageKey: file.storageKey,
              userId: null,
            }),
          );
          return ok({ id, contentType: file.contentType });
        },
      );
    },
  });
}
