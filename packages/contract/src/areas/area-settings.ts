import type { Lang } from '../i18n/lang';
import type { AreaDef, AreaSettingDef } from './area-kit';

/** A stored value of an area setting. */
export type AreaSettingValue = number | string | boolean;

/**
 * Why a value cannot be a setting's, before translation: `field` is `values.<key>`, `key` a
 * message of the contract's catalogue (i18n/messages.ts), `params.setting` the setting's label
 * in the reader's language. The server answers these as a 400; the form shows the same.
 */
export interface SettingProblem {
  field: string;
  key: string;
  params: Record<string, string | number>;
}

/** Decimal places of a number (1e-7 counts as 7; enough for settings typed by people). */
function decimals(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split('e')[0]!.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/** The problem of one value for one setting (type, integer, min, max, precision, option), or none. */
export function settingProblem(
  def: AreaSettingDef,
  value: unknown,
  lang: Lang,
): SettingProblem | undefined {
  const field = `values.${def.key}`;
  const setting = def.label[lang];
  const problem = (key: string, more: Record<string, string | number> = {}) => ({
    field,
    key,
    params: { setting, ...more },
  });
  switch (def.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : problem('monitor.settingWrongType');
    case 'enum': {
      const options = def.options ?? [];
      if (typeof value === 'string' && options.some((option) => option.value === value))
        return undefined;
      return problem('monitor.settingNotOption', {
        values: options.map((option) => option.label[lang]).join(', '),
      });
    }
    default: {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return problem('monitor.settingWrongType');
      if (def.type === 'integer' && !Number.isInteger(value))
        return problem('monitor.settingNotInteger');
      if ((def.min !== undefined && value < def.min) || (def.max !== undefined && value > def.max))
        return problem('monitor.settingOutOfRange', {
          min: def.min ?? '-∞',
          max: def.max ?? '∞',
          unit: def.unit ? ` ${def.unit}` : '',
        });
      if (def.precision !== undefined && decimals(value) > def.precision)
        return problem('monitor.settingPrecision', { precision: def.precision });
      return undefined;
    }
  }
}

/**
 * Checks values sent for an area's settings: every key a declared setting, every value fitting
 * it; `null` resets a setting to its default. Answers every problem (none: they may be stored).
 */
export function checkAreaSettings(
  area: AreaDef,
  values: Record<string, unknown>,
  lang: Lang,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const [key, value] of Object.entries(values)) {
    const def = area.settings.find((one) => one.key === key);
    if (!def) {
      problems.push({
        field: `values.${key}`,
        key: 'monitor.settingUnknown',
        params: { setting: key, area: area.title[lang] },
      });
      continue;
    }
    if (value === null) continue;
    const problem = settingProblem(def, value, lang);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** A stored value when it still fits the declaration, else the default (a narrowed range). */
export function settingValueOf(def: AreaSettingDef, stored: unknown): AreaSettingValue {
  return stored !== undefined && stored !== null && !settingProblem(def, stored, 'en')
    ? (stored as AreaSettingValue)
    : def.defaultValue;
}
