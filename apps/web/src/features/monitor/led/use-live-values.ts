import { ledBoundDeviceIds, ledValueKey, type LedPage } from '@shuili/contract';
import { useLatestReadings } from './use-latest-readings';

/**
 * The latest values of the devices a program's live values are bound to, keyed
 * `<deviceId>.<property>` as the screen keys them: the preview shows what the screens show.
 */
export function useLiveValues(pages: readonly LedPage[]): Record<string, number> {
  const deviceIds = ledBoundDeviceIds(pages);
  const readings = useLatestReadings(deviceIds);
  const values: Record<string, number> = {};
  readings.forEach((items, index) => {
    for (const item of items ?? [])
      if (item.value !== null)
        values[ledValueKey({ deviceId: deviceIds[index]!, property: item.key })] = item.value;
  });
  return values;
}
