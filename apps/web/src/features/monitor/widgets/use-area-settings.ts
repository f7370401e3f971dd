import {
  AREA_SETTING_CALLS,
  AREA_SETTING_MAX_PAGE_SIZE,
  settingValueOf,
  type AreaDef,
  type AreaDeviceSettings,
  type AreaSettingValue,
  type PageResult,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { http } from '../../../lib/http';

const readSettings = (area: AreaDef, deviceId: string | undefined, signal: AbortSignal) =>
  http.get<PageResult<AreaDeviceSettings>>(AREA_SETTING_CALLS.query, {
    params: { area: area.code, deviceId, currentPage: 1, pageSize: AREA_SETTING_MAX_PAGE_SIZE },
    signal,
    silent: true,
  });

/**
 * A device's automation settings of its area (a pump station's dry-run level, a soil station's
 * soil type): its own value or the declaration's default. The area's devices are read in one
 * call that every card of the screen shares (a device beyond its first page is read alone).
 * Until they are read, or when the reader may not read them, the defaults stand: a widget never
 * waits for them.
 */
export function useAreaSettings(area: AreaDef, deviceId: string) {
  const hasSettings = area.settings.length > 0;
  const all = useQuery({
    queryKey: ['monitor', 'areaSettings', area.code],
    queryFn: ({ signal }) => readSettings(area, undefined, signal),
    enabled: hasSettings,
    staleTime: 60_000,
    retry: false,
  });
  const listed = all.data?.list.find((row) => row.deviceId === deviceId);
  const beyondPage = !!all.data && !listed && all.data.total > all.data.list.length;
  const alone = useQuery({
    queryKey: ['monitor', 'areaSetting', area.code, deviceId],
    queryFn: ({ signal }) => readSettings(area, deviceId, signal),
    enabled: hasSettings && beyondPage,
    staleTime: 60_000,
    retry: false,
  });
  const row = listed ?? alone.data?.list[0];
  const values = row?.values;
  const value = useCallback(
    (key: string): AreaSettingValue | undefined => {
      const def = area.settings.find((one) => one.key === key);
      return def ? settingValueOf(def, values?.[key]) : undefined;
    },
    [area, values],
  );
  return { value, own: row?.own ?? [] };
}
