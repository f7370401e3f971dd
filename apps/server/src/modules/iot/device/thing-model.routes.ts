import {
  iotProductEntity,
  productThingModelSchema,
  thingModelQuerySchema,
  thingModelSchema,
  thingModelUpdateSchema,
  THING_MODEL_CALLS,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../../db/database';
import { AppError, notFound } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { issuesToProblems } from '../../../http/validation-problems';
import type { DeviceChanges } from './device-changes';
import { thingModelOf } from './device-directory';
import { productRepo } from './product.repo';

const fieldLabels = { serialNo: iotProductEntity.fields.serialNo! };

/** The product's thing model, read and written on its own page (/IOTproductShowEdit/{serialNo}). */
export async function thingModelRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; changes: DeviceChanges },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(THING_MODEL_CALLS.query, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['IotProduct'],
      summary: "A product's thing model by its serial number",
      querystring: thingModelQuerySchema,
      response: { 200: envelopeOf(productThingModelSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const found = await deps.db.tenant(auth, (sql) =>
        productRepo.bySerialNo(sql, request.query.serialNo),
      );
      if (!found) throw notFound('error.recordNotFound');
      return ok({ ...found, thingModel: thingModelOf(found.thingModel) });
    },
  });

  app.put(THING_MODEL_CALLS.update, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['IotProduct'],
      summary: "Replaces a product's thing model (validated whole; errors name each path)",
      body: thingModelUpdateSchema,
      response: { 200: envelopeOf(productThingModelSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const parsed = thingModelSchema.safeParse(request.body.thingModel);
      if (!parsed.success) {
        // The full path (thingModel.properties.2.key), so the editor can point at the cell.
        const fields = issuesToProblems(
          parsed.error.issues.map((issue) => ({
            ...issue,
            path: [['thingModel', ...issue.path.map(String)].join('.')],
          })),
        );
        throw new AppError(400, 'validation.invalid', { fields });
      }
      const updated = await deps.db.tenant(auth, (sql) =>
        productRepo.updateThingModel(sql, request.body.serialNo, parsed.data, auth.userId),
      );
      if (!updated) throw notFound('error.recordNotFound');
      deps.changes.notify(auth.tenantId);
      return ok({ ...updated, thingModel: thingModelOf(updated.thingModel) });
    },
  });
}
