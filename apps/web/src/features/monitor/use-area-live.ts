import { liveTopics, parseDeviceTopic } from '@shuili/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { subscribeLive } from '../../core/live/live-connection';
import { useSessionStore } from '../../core/session-store';
import { mergePatch, patchReadings, withPatch, type LivePatch } from './area-devices';
import type { AreaDevice } from './widgets/widget-types';

/** Every channel of one device (telemetry, status, command answers): one subscription each. */
const deviceFilter = (tenantCode: string, deviceNo: string) => `t/${tenantCode}/d/${deviceNo}/#`;

/**
 * The devices of a page kept live over the tab's MQTT connection (no polling, no refetch): their
 * readings, command answers (a valve's new state), statuses and the server's presence pushes
 * are folded into them as they arrive. Alarms change which alarm a device shows in ways only the
 * server knows (one cleared, another still open): an alarm push about a device of the page calls
 * `onAlarm`, for the page to be read again.
 */
export function useAreaLive(devices: readonly AreaDevice[], onAlarm: () => void): AreaDevice[] {
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const [patches, setPatches] = useState<ReadonlyMap<string, LivePatch>>(new Map());
  const byNumber = useMemo(
    () => new Map(devices.map((device) => [device.deviceNo, device])),
    [devices],
  );
  const current = useRef({ byNumber, onAlarm });
  useEffect(() => {
    current.current = { byNumber, onAlarm };
  });
  const numbers = devices.map((device) => device.deviceNo).join('\n');

  useEffect(() => {
    if (!tenantCode || !numbers) return undefined;
    const apply = (deviceNo: string, patch: (device: AreaDevice) => LivePatch) => {
      const device = current.current.byNumber.get(deviceNo);
      if (!device) return;
      const next = patch(device);
      setPatches((known) => new Map(known).set(device.id, mergePatch(known.get(device.id), next)));
    };
    const stops = numbers.split('\n').map((deviceNo) =>
      subscribeLive(deviceFilter(tenantCode, deviceNo), (message) => {
        const channel = parseDeviceTopic(message.topic)?.channel;
        const now = Date.now();
        if (channel === 'telemetry') {
          apply(deviceNo, (device) => ({
            readings: patchReadings(device, message.payload, now),
            online: true,
            lastSeen: new Date(now).toISOString(),
          }));
        } else if (channel === 'cmd/ack') {
          // An answer may carry the values after the command (a valve's new state).
          const values = (message.payload as { values?: unknown } | undefined)?.values;
          if (values && typeof values === 'object')
            apply(deviceNo, (device) => ({ readings: patchReadings(device, { values }, now) }));
        } else if (channel === 'status') {
          const online = (message.payload as { online?: unknown } | undefined)?.online;
          if (typeof online === 'boolean') apply(deviceNo, () => ({ readings: {}, online }));
        }
      }),
    );
    stops.push(
      subscribeLive(liveTopics.presence(tenantCode), (message) => {
        const push = message.payload as { deviceNo?: unknown; online?: unknown } | undefined;
        if (typeof push?.deviceNo === 'string' && typeof push.online === 'boolean') {
          const online = push.online;
          apply(push.deviceNo, () => ({ readings: {}, online }));
        }
      }),
      subscribeLive(liveTopics.alarms(tenantCode), (message) => {
        const deviceNo = (message.payload as { deviceNo?: unknown } | undefined)?.deviceNo;
        if (typeof deviceNo === 'string' && current.current.byNumber.has(deviceNo))
          current.current.onAlarm();
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [tenantCode, numbers]);

  return useMemo(
    () => devices.map((device) => withPatch(device, patches.get(device.id))),
    [devices, patches],
  );
}
