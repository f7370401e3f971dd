import { idSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { DeviceTransport } from '../../../mqtt/device-transport';
import { credentialUrls } from './credential-urls';
import type { CredentialService } from './credential.service';

const tags = ['iot'];
const deviceIdBody = z.strictObject({ id: idSchema });

/** Device secrets: issued (shown once, with where to connect) and revoked. */
export async function credentialRoutes(
  fastify: FastifyInstance,
  deps: {
    credentials: CredentialService;
    transport: DeviceTransport | undefined;
    publicUrls: string[];
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/iot/device/resetDeviceSecret', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: 'Issues a new MQTT secret for a device (shown once); the previous one stops working',
      body: deviceIdBody,
      response: {
        200: envelopeOf(
          z.object({
            id: z.string(),
            deviceNo: z.string(),
            username: z.string(),
            clientId: z.string(),
            secret: z.string(),
            brokerUrls: z.array(z.string()),
          }),
        ),
      },
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const issued = await deps.credentials.reset(auth, request.body.id);
      // A secret must not sit in a cache or a proxy log.
      reply.header('cache-control', 'no-store');
      return ok({
        id: issued.deviceId,
        deviceNo: issued.deviceNo,
        username: issued.identity,
        clientId: issued.identity,
        secret: issued.secret,
        brokerUrls: credentialUrls(deps.publicUrls, deps.transport?.endpoints(), request),
      });
    },
  });

  app.post('/api/iot/device/revokeDeviceSecret', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: "Revokes a device's MQTT secret and ends its connection",
      body: deviceIdBody,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      await deps.credentials.revoke(auth, request.body.id);
      return ok(null);
    },
  });
}
