import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../resource/field-label';
import type { Translate } from '../../resource/field-rules';
import type { ValueWords } from './device/thing-value';

/**
 * Units of time are words, unlike symbols (%, °C, m³/h) every language writes alike: "min" reads
 * as a stray code to a Chinese reader, who expects 分钟. These are said in the reader's language.
 */
const WORD_UNITS = new Set(['min', 'h', 's', 'd']);

/** A thing model's unit as the reader reads it: time units translated, symbols as they are. */
export function unitText(unit: string, t: Translate): string {
  return WORD_UNITS.has(unit) ? t(`iot.unit.${unit}`) : unit;
}

/** unitText with the reader's language. */
export function useUnit(): (unit: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback((unit) => unit && unitText(unit, t as Translate), [t]);
}

/** What formatThingValue needs to write values in the reader's language. */
export function useValueWords(): ValueWords {
  const { t } = useTranslation();
  const label = useLabel();
  return useMemo(
    () => ({
      label,
      yes: t('iot.device.yes'),
      no: t('iot.device.no_'),
      unit: (unit: string) => unitText(unit, t as Translate),
    }),
    [label, t],
  );
}
