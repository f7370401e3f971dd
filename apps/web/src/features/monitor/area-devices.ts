import {
  AREA_DEVICE_CALLS,
  EMPTY_THING_MODEL,
  type AreaDevicePage,
  type AreaDeviceQuery,
  type ThingModel,
} from '@shuili/contract';
import { http } from '../../lib/http';
import { readingsOf } from '../iot/device/thing-value';
import type { AreaDevice } from './widgets/widget-types';

export const areaDeviceApi = {
  page: (query: AreaDeviceQuery, signal?: AbortSignal) =>
    http.get<AreaDevicePage>(AREA_DEVICE_CALLS.query, { params: { ...query }, signal }),
};

/** The page's rows as the area screens and widgets take them: each with its thing model. */
export function areaDevicesOf(page: AreaDevicePage): AreaDevice[] {
  const models = new Map<string, ThingModel>(
    page.products.map((product) => [product.id, product.thingModel]),
  );
  return page.list.map((row) => ({
    id: row.id,
    deviceNo: row.deviceNo,
    deviceName: row.deviceName,
    online: row.online,
    status: row.status,
    lastSeen: row.lastSeen,
    zoneId: row.zoneId,
    zoneName: row.zoneName,
    lat: row.lat,
    lng: row.lng,
    alarmLevel: row.alarmLevel ?? null,
    thingModel: models.get(row.productId) ?? EMPTY_THING_MODEL,
    values: row.values ?? {},
    valueTimes: row.valueTimes ?? {},
  }));
}

/** What the broker told about one device since the page was read. */
export interface LivePatch {
  /** Value and time (ISO) per key. */
  readings: Record<string, { value: number | string | null; ts: string }>;
  online?: boolean;
  lastSeen?: string;
}

/** Live readings of a telemetry (or command answer's) payload, as a patch's readings. */
export function patchReadings(
  device: AreaDevice,
  payload: unknown,
  receivedAt: number,
): LivePatch['readings'] {
  // Numbers, enums and booleans, as the list answers them (the thing model's texts are not shown).
  const properties = device.thingModel.properties.filter((property) => property.type !== 'string');
  const readings: LivePatch['readings'] = {};
  for (const reading of readingsOf(payload, properties, receivedAt)) {
    const value = typeof reading.value === 'boolean' ? Number(reading.value) : reading.value;
    const ts = new Date(reading.ts).toISOString();
    const known = readings[reading.key];
    if (!known || known.ts <= ts) readings[reading.key] = { value, ts };
  }
  return readings;
}

/** Folds newer readings and presence into a patch (a late batch never overwrites fresher values). */
export function mergePatch(current: LivePatch | undefined, next: LivePatch): LivePatch {
  const readings = { ...current?.readings };
  for (const [key, reading] of Object.entries(next.readings)) {
    const known = readings[key];
    if (!known || known.ts <= reading.ts) readings[key] = reading;
  }
  return {
    readings,
    online: next.online ?? current?.online,
    lastSeen:
      [current?.lastSeen, next.lastSeen]
        .filter((at): at is string => !!at)
        .sort()
        .at(-1) ?? undefined,
  };
}

/**
 * A device with what arrived live: each value newer than the page's, the connection as last
 * told. Answers the same object when nothing changes, so unchanged cards do not redraw.
 */
export function withPatch(device: AreaDevice, patch: LivePatch | undefined): AreaDevice {
  if (!patch) return device;
  const values = { ...device.values };
  const valueTimes = { ...device.valueTimes };
  let changed = false;
  for (const [key, reading] of Object.entries(patch.readings)) {
    const stored = valueTimes[key];
    if (stored && stored > reading.ts) continue;
    values[key] = reading.value;
    valueTimes[key] = reading.ts;
    changed = true;
  }
  const online = patch.online ?? device.online;
  const lastSeen =
    patch.lastSeen && (!device.lastSeen || patch.lastSeen > device.lastSeen)
      ? patch.lastSeen
      : device.lastSeen;
  if (!changed && online === device.online && lastSeen === device.lastSeen) return device;
  return { ...device, values, valueTimes, online, lastSeen };
}
