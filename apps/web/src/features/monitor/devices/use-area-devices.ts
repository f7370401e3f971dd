import {
  AREA_DEVICE_DEFAULT_PAGE_SIZE,
  type AreaDef,
  type AreaDevicePage,
  type AreaDeviceQuery,
} from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { areaDeviceApi, areaDevicesOf } from '../area-devices';
import { useAreaLive } from '../use-area-live';
import type { AreaDevice } from '../widgets/widget-types';
import { filterQuery, type AreaDeviceFilterValues } from './area-device-filters';

/** Alarm pushes that come together are answered by one reading of the page. */
const ALARM_REREAD_MS = 500;

export interface AreaDevices {
  page: AreaDevicePage | undefined;
  /** The page's devices, kept live. */
  devices: AreaDevice[];
  loading: boolean;
  failed: boolean;
  refetch: () => void;
  filters: AreaDeviceFilterValues;
  setFilters: (filters: AreaDeviceFilterValues) => void;
  currentPage: number;
  pageSize: number;
  setPage: (currentPage: number, pageSize: number) => void;
}

/**
 * One page of an area's devices with the filters and paging of the screen showing them: read
 * once per filter and page, then kept live over MQTT (useAreaLive). A new filter starts again
 * at the first page.
 */
export function useAreaDevices(
  area: AreaDef,
  initialPageSize = AREA_DEVICE_DEFAULT_PAGE_SIZE,
): AreaDevices {
  const [filters, setFilterValues] = useState<AreaDeviceFilterValues>({});
  const [paging, setPaging] = useState({ currentPage: 1, pageSize: initialPageSize });
  const query: AreaDeviceQuery = { area: area.code, ...filterQuery(filters), ...paging };
  const result = useQuery({
    queryKey: ['monitor', 'area-devices', query],
    queryFn: ({ signal }) => areaDeviceApi.page(query, signal),
    placeholderData: keepPreviousData,
  });
  const devices = useMemo(() => (result.data ? areaDevicesOf(result.data) : []), [result.data]);

  const { refetch } = result;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const rereadSoon = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void refetch(), ALARM_REREAD_MS);
  }, [refetch]);
  const live = useAreaLive(devices, rereadSoon);

  return {
    page: result.data,
    devices: live,
    loading: result.isPending,
    failed: result.isError,
    refetch: () => void refetch(),
    filters,
    setFilters: (next) => {
      setFilterValues(next);
      setPaging((current) => ({ ...current, currentPage: 1 }));
    },
    currentPage: paging.currentPage,
    pageSize: paging.pageSize,
    setPage: (currentPage, pageSize) => setPaging({ currentPage, pageSize }),
  };
}
