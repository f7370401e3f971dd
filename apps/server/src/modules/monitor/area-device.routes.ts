import {
  AREA_DEVICE_CALLS,
  areaDevicePageSchema,
  areaDeviceQuerySchema,
  label,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { AreaDeviceService } from './area-device.service';

/** Names of the query fields in validation messages. */
const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  area: { label: label('Area', '监测业务', '監測業務') },
  zoneId: { label: label('Zone', '区域', '區域') },
  projectId: { label: label('Project', '项目', '專案') },
  status: { label: label('Health', '设备状态', '設備狀態') },
  online: { label: label('Online', '在线', '在線') },
  text: { label: label('Search', '搜索', '搜尋') },
  currentPage: { label: label('Page', '页码', '頁碼') },
  pageSize: { label: label('Page size', '每页条数', '每頁筆數') },
};

/** GET /api/monitor/device/queryAreaDevice: the device list and monitor of every area. */
export async function areaDeviceRoutes(
  fastify: FastifyInstance,
  deps: { devices: AreaDeviceService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Without its index the list still answers, only slower: a failure is said, not fatal.
  app.addHook('onReady', async () => {
    await deps.devices
      .ensureIndexes()
      .catch((error: unknown) => app.log.warn({ err: error }, 'area device list index'));
  });
  app.get(AREA_DEVICE_CALLS.query, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['monitor'],
      summary:
        "An area's devices in the caller's zones with live values, alarm, and the counts by state",
      querystring: areaDeviceQuerySchema,
      response: { 200: envelopeOf(areaDevicePageSchema) },
    },
    handler: async (request) => ok(await deps.devices.page(authOf(request), request.query)),
  });
}
