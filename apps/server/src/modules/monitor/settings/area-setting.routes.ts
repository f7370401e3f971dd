import {
  AREA_SETTING_CALLS,
  areaDeviceSettingsSchema,
  areaSettingQuerySchema,
  label,
  updateAreaSettingSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, page, pageOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { AreaSettingService } from './area-setting.service';

/** Field names of the settings calls, for their validation messages. */
const fieldLabels = {
  area: { label: label('Area', '业务区域', '業務區域') },
  deviceId: { label: label('Device', '设备', '設備') },
  values: { label: label('Settings', '设置', '設定') },
};

/** Reading and changing the per-device settings of an area (the configuration screen's form). */
export async function areaSettingRoutes(
  fastify: FastifyInstance,
  deps: { settings: AreaSettingService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };

  app.get(AREA_SETTING_CALLS.query, {
    config,
    schema: {
      tags,
      summary: "An area's settings of one device, or of each of its devices, defaults filled in",
      querystring: areaSettingQuerySchema,
      response: { 200: pageOf(areaDeviceSettingsSchema) },
    },
    handler: async (request) => {
      const query = request.query;
      const { list, total } = await deps.settings.query(authOf(request), request.lang, query);
      return page(list, total, query.currentPage, query.pageSize);
    },
  });

  app.post(AREA_SETTING_CALLS.update, {
    config,
    schema: {
      tags,
      summary: "Set (or reset with null) a device's values of its area's settings, all or none",
      body: updateAreaSettingSchema,
      response: { 200: envelopeOf(areaDeviceSettingsSchema) },
    },
    handler: async (request) =>
      ok(await deps.settings.update(authOf(request), request.lang, request.body)),
  });
}
