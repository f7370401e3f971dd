import { iotDeviceEntity } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/database';
import { DataFieldService } from '../../../entity/data-field.service';
import { entityRepo } from '../../../entity/entity-repo';
import { shapeRow } from '../../../entity/entity-rows';
import { readableFields, type FieldGrants } from '../../../entity/field-grants';
import { notFound } from '../../../http/app-error';
import { ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { thingModelOf } from './device-directory';

const querySchema = z.object({
  id: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
});

const dataFields = new DataFieldService();

/**
 * GET /api/iot/device/queryDeviceDetail?id=: the device row as the device list shows it (the
 * role's data permissions apply alike), its product and thing model: the device page's opening call.
 */
export async function deviceDetailRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; grants: FieldGrants },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/iot/device/queryDeviceDetail', {
    config: { permission: 'granted' },
    schema: {
      tags: ['IotDevice'],
      summary: 'One device with its product and thing model (the device page)',
      querystring: querySchema,
    },
    handler: async (request) => {
      const auth = authOf(request);
      const detail = await deps.db.tenant(auth, async (sql) => {
        const [found] = await entityRepo.byIds(sql, iotDeviceEntity, [request.query.id]);
        if (!found) return undefined;
        const visible = await readableFields(
          iotDeviceEntity,
          await dataFields.visible(sql, auth.activeRole, iotDeviceEntity.menuCode),
          auth,
          deps.grants,
        );
        const device = shapeRow(found, visible);
        const { rows } = await sql.query<{
          serialNo: string;
          productName: string;
          thingModel: unknown;
        }>(
          `SELECT serial_no AS "serialNo", product_name AS "productName", thing_model AS "thingModel"
             FROM iot_product WHERE id = $1`,
          [found.productId],
        );
        const product = rows[0];
        if (!product) return undefined;
        return { device, ...product, thingModel: thingModelOf(product.thingModel) };
      });
      if (!detail) throw notFound('error.recordNotFound');
      return ok(detail);
    },
  });
}
