import { EMPTY_THING_MODEL, type AreaDef, type ThingModel } from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { areaDeviceApi } from '../area-devices';

/** A device an area screen can pick: its label, product and thing model (its factors). */
export interface ReportDevice {
  id: string;
  label: string;
  productId: string;
  thingModel: ThingModel;
}

/** Devices one search offers at most (a district's valves are thousands: the rest by search). */
const CHOICES = 200;

/**
 * The area's devices the caller sees (the area device list's call, in their zones), first by
 * number, or those matching the search text.
 */
export function useReportDevices(area: AreaDef | undefined, text: string) {
  return useQuery({
    queryKey: ['monitor', 'report-devices', area?.code, text],
    enabled: !!area,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<ReportDevice[]> => {
      const page = await areaDeviceApi.page(
        { area: area!.code, pageSize: CHOICES, ...(text ? { text } : {}) },
        signal,
      );
      const models = new Map(page.products.map((product) => [product.id, product.thingModel]));
      return page.list.map((row) => ({
        id: row.id,
        label: row.deviceName ? `${row.deviceName} (${row.deviceNo})` : row.deviceNo,
        productId: row.productId,
        thingModel: models.get(row.productId) ?? EMPTY_THING_MODEL,
      }));
    },
  });
}
