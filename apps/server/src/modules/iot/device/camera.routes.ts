import { iotDeviceEntity } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/database';
import { DataFieldService } from '../../../entity/data-field.service';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';

const cameraSchema = z.object({
  id: z.string(),
  deviceNo: z.string(),
  deviceName: z.string(),
  productName: z.string(),
  status: z.number(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  projectId: z.string().nullable(),
  zoneId: z.string().nullable(),
  zoneName: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  installAddress: z.string().nullable(),
});

/** A camera's fields that are the device's own, hidden as the device list hides them. */
const DEVICE_FIELDS = ['projectId', 'zoneId', 'lat', 'lng', 'installAddress', 'lastSeen'] as const;

const dataFields = new DataFieldService();

const idParam = z
  .string()
  .regex(/^\d{1,18}$/, { error: 'validation.invalid' })
  .optional();

/**
 * GET /api/video/camera/queryAllCamera (spec §7 "Cameras"): every camera of the caller's tenant
 * that the caller may see. Cameras are IoT devices of a product of the `camera` kind, so the
 * tenant, zone and project policies of the device table decide what is listed, as everywhere,
 * and the role's data permissions of the device screen which of their fields are shown.
 */
export async function cameraRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/video/camera/queryAllCamera', {
    config: { permission: 'granted' },
    schema: {
      tags: ['Camera'],
      summary: 'Every camera the caller may see (optionally of one zone or project), online first',
      querystring: z.object({ zoneId: idParam, projectId: idParam }),
      response: { 200: envelopeOf(z.array(cameraSchema)) },
    },
    handler: async (request) => {
      const { zoneId, projectId } = request.query;
      const auth = authOf(request);
      const { rows, visible } = await deps.db.tenant(auth, async (sql) => ({
        visible: await dataFields.visible(sql, auth.activeRole, iotDeviceEntity.menuCode),
        ...(await sql.query<z.infer<typeof cameraSchema>>(
          `SELECT d.id::text AS id, d.device_no AS "deviceNo", d.device_name AS "deviceName",
                  p.product_name AS "productName", d.status, d.online,
                  to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastSeen",
                  d.project_id::text AS "projectId", d.zone_id::text AS "zoneId", z.zone_name AS "zoneName",
                  d.lat::float8 AS lat, d.lng::float8 AS lng, d.install_address AS "installAddress"
             FROM iot_device d
             JOIN iot_product p ON p.id = d.product_id
             LEFT JOIN sys_zone z ON z.id = d.zone_id
            WHERE p.device_kind = 'camera'
              AND ($1::bigint IS NULL OR d.zone_id = $1::bigint)
              AND ($2::bigint IS NULL OR d.project_id = $2::bigint)
            ORDER BY d.online DESC, d.device_no`,
          [zoneId ?? null, projectId ?? null],
        )),
      }));
      // The role's data permissions on the device screen apply here too (device-detail.routes.ts).
      if (visible)
        for (const camera of rows)
          for (const field of DEVICE_FIELDS) if (!visible.has(field)) camera[field] = null;
      return ok(rows);
    },
  });
}
