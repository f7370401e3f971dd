import { deviceTopic, liveTopics, type ThingParam } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSessionStore } from '../../../core/session-store';
import { useLiveTopic } from '../../../core/live/use-live-topic';
import { deviceApi, type DeviceRow } from './device-api';
import { mergeReadings, readingsOf, type Reading } from './thing-value';

export interface DeviceLive {
  readings: ReadonlyMap<string, Reading>;
  online: boolean;
  /** Milliseconds since the epoch, or undefined when never seen. */
  lastSeen: number | undefined;
}

/**
 * The device's values: the latest stored ones once, then every telemetry message, command answer
 * and status change as the broker pushes them (no polling).
 */
export function useDeviceLive(device: DeviceRow, properties: readonly ThingParam[]): DeviceLive {
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  // Only what arrived live; the stored latest values are merged in when read.
  const [pushed, setReadings] = useState<ReadonlyMap<string, Reading>>(new Map());
  const [online, setOnline] = useState(device.online);
  const [lastSeen, setLastSeen] = useState(
    device.lastSeen ? Date.parse(device.lastSeen) : undefined,
  );
  const latest = useQuery({
    queryKey: ['iot', 'latest', device.id],
    queryFn: ({ signal }) => deviceApi.latest(device.id, signal),
  });

  const readings = useMemo(() => {
    const stored: Reading[] = (latest.data ?? [])
      .filter((row) => row.ts !== null && (row.value !== null || row.textValue != null))
      .map((row) => ({
        key: row.key,
        value: row.textValue ?? row.value,
        ts: typeof row.ts === 'number' ? row.ts : Date.parse(String(row.ts)),
      }));
    // Live messages may have arrived before the stored values: the newest wins either way.
    return mergeReadings(pushed, stored);
  }, [latest.data, pushed]);

  const topic = (channel: 'telemetry' | 'cmd/ack' | 'status') =>
    tenantCode ? deviceTopic(tenantCode, device.deviceNo, channel) : undefined;

  const onValues = useCallback(
    (payload: unknown) => {
      const now = Date.now();
      const fresh = readingsOf(payload, properties, now);
      setLastSeen(now);
      setOnline(true);
      if (fresh.length > 0) setReadings((current) => mergeReadings(current, fresh));
    },
    [properties],
  );
  useLiveTopic(topic('telemetry'), (message) => onValues(message.payload));
  useLiveTopic(topic('cmd/ack'), (message) => {
    // An answer may carry the values after the command (a valve's new state).
    const values = (message.payload as { values?: unknown } | undefined)?.values;
    if (values && typeof values === 'object') onValues({ values });
  });
  useLiveTopic(topic('status'), (message) => {
    const status = message.payload as { online?: unknown } | undefined;
    if (typeof status?.online === 'boolean') setOnline(status.online);
  });
  useLiveTopic(tenantCode ? liveTopics.presence(tenantCode) : undefined, (message) => {
    const push = message.payload as { deviceNo?: unknown; online?: unknown } | undefined;
    if (push?.deviceNo === device.deviceNo && typeof push.online === 'boolean') {
      setOnline(push.online);
    }
  });

  return { readings, online, lastSeen };
}
