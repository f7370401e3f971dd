import { useCallback } from 'react';
import { useLabel } from '../../../resource/field-label';
import { formatThingValue } from '../../iot/device/thing-value';
import { useValueWords } from '../../iot/units';
import { propertyOf } from './device-values';
import type { AreaDevice } from './widget-types';

/** Dash for a value the device has not reported. */
export const NO_VALUE = '—';

/**
 * Texts of a device's live values as its thing model describes them (enum labels, units and
 * decimals), and the reader's name of each property.
 */
export function useValueText(device: AreaDevice) {
  const words = useValueWords();
  const label = useLabel();
  const text = useCallback(
    (key: string): string => {
      const property = propertyOf(device, key);
      if (!property) return NO_VALUE;
      return formatThingValue(property, device.values[key] ?? undefined, words) ?? NO_VALUE;
    },
    [device, words],
  );
  const name = useCallback(
    (key: string): string => {
      const property = propertyOf(device, key);
      return property ? label(property.name) : key;
    },
    [device, label],
  );
  return { text, name, label, words };
}
