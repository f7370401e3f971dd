import { TELEMETRY_CALLS, type TelemetryLatestItem } from '@shuili/contract';
import { useQueries } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** How often the devices' latest values are read again (they report every few minutes). */
const REFRESH_MS = 5000;

/**
 * The latest value of every property of each device (queryLatest), read again every few seconds:
 * the bound values a preview draws, the program a screen reports. In the order of `deviceIds`.
 */
export function useLatestReadings(
  deviceIds: readonly string[],
): Array<TelemetryLatestItem[] | undefined> {
  return useQueries({
    queries: deviceIds.map((deviceId) => ({
      queryKey: ['led', 'latest', deviceId],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        http.get<TelemetryLatestItem[]>(TELEMETRY_CALLS.latest, {
          params: { deviceId },
          signal,
          silent: true,
        }),
      refetchInterval: REFRESH_MS,
    })),
  }).map((result) => result.data);
}
