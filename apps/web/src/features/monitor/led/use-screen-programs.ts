import { useLatestReadings } from './use-latest-readings';

/**
 * The program code each screen reports showing (its `program` property, a text: the area device
 * list answers numbers and states only), by device id; blank when it shows none.
 */
export function useScreenPrograms(deviceIds: readonly string[]): Record<string, string> {
  const readings = useLatestReadings(deviceIds);
  return Object.fromEntries(
    deviceIds.map((deviceId, index) => [
      deviceId,
      readings[index]?.find((item) => item.key === 'program')?.textValue ?? '',
    ]),
  );
}
