import {
  FLOOD_CALLS,
  FLOOD_STATUS_MAX_DEVICES,
  type FloodStationStatus,
  type FloodThreshold,
  type RainThresholds,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** How long the flood status of a station is fresh: the gauges report every 5 minutes. */
const FRESH_MS = 60_000;

/**
 * Stations asked for within one tick are read in one call (a monitor page draws 48 cards, each
 * asking for its own station): each caller gets its station's answer.
 */
let pending: Map<
  string,
  Array<(status: FloodStationStatus | undefined, error?: unknown) => void>
> = new Map();
function batched(deviceId: string): Promise<FloodStationStatus | undefined> {
  return new Promise((resolve, reject) => {
    const first = pending.size === 0;
    const waiting = pending.get(deviceId) ?? [];
    waiting.push((status, error) => (error ? reject(error) : resolve(status)));
    pending.set(deviceId, waiting);
    if (!first) return;
    setTimeout(() => {
      const asked = pending;
      pending = new Map();
      const ids = [...asked.keys()];
      for (let from = 0; from < ids.length; from += FLOOD_STATUS_MAX_DEVICES) {
        const part = ids.slice(from, from + FLOOD_STATUS_MAX_DEVICES);
        http
          .get<FloodStationStatus[]>(FLOOD_CALLS.status, {
            params: { deviceIds: part.join(',') },
            silent: true,
          })
          .then((list) => {
            for (const id of part)
              for (const done of asked.get(id)!)
                done(list.find((status) => status.deviceId === id));
          })
          .catch((error: unknown) => {
            for (const id of part) for (const done of asked.get(id)!) done(undefined, error);
          });
      }
    }, 0);
  });
}

/** A flood station now: rolling rain, the rainstorm level reached, the water level's state. */
export function useFloodStatus(deviceId: string) {
  return useQuery({
    queryKey: ['monitor', 'floodStatus', deviceId],
    queryFn: () => batched(deviceId),
    staleTime: FRESH_MS,
    refetchInterval: FRESH_MS,
    retry: false,
  });
}

/** The thresholds calls of the configuration tab. */
export const floodThresholdApi = {
  read: (deviceId: string | null, signal?: AbortSignal) =>
    http.get<FloodThreshold>(FLOOD_CALLS.thresholds, {
      params: { deviceId: deviceId ?? undefined },
      signal,
    }),
  save: (deviceId: string | null, thresholds: RainThresholds | null) =>
    http.post<FloodThreshold>(FLOOD_CALLS.updateThresholds, {
      data: { deviceId, thresholds },
      quietFieldErrors: true,
    }),
};
