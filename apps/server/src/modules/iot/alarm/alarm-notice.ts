import { DEFAULT_DICTS, LANGS, translate, type AlarmLevel, type Lang } from '@shuili/contract';
import type { AlarmRuleSpec } from './alarm-evaluator';
import type { AlarmDevice, AlarmRecordRow } from './alarm.repo';
import { thingModelOf } from '../command/command-params';

/** Bell priority of each alarm level. */
const PRIORITY: Record<AlarmLevel, string> = {
  blue: 'normal',
  yellow: 'normal',
  orange: 'high',
  red: 'urgent',
};

function levelName(level: AlarmLevel, lang: Lang): string {
  return (
    DEFAULT_DICTS.find((entry) => entry.dictType === 'alarm_level' && entry.dictValue === level)
      ?.label[lang] ?? level
  );
}

/**
 * The bell notice of a raised alarm, naming device, property and values in every interface
 * language: each reader gets theirs (notification.repo.ts), never the others. `title` and
 * `content` (English) are what a reader of no known language and the publishing screen see.
 */
export interface AlarmNotice {
  title: string;
  content: string;
  titleI18n: Record<Lang, string>;
  /** Rich text (a paragraph), as notices are. */
  contentI18n: Record<Lang, string>;
  /** The content as plain text, for the live pop-up. */
  text: Record<Lang, string>;
  priority: string;
}

export function alarmNotice(
  record: AlarmRecordRow,
  rule: AlarmRuleSpec,
  device: AlarmDevice | undefined,
): AlarmNotice {
  const property = device
    ? thingModelOf(device.thing_model).properties.find((one) => one.key === record.property_key)
    : undefined;
  const text = (key: string, lang: Lang) =>
    translate(lang, key, {
      level: levelName(record.level, lang),
      device: device?.device_name || device?.device_no || String(record.device_id),
      property: property ? `${property.name[lang]}` : record.property_key,
      value: withUnit(record.value, property?.unit),
      threshold: withUnit(record.threshold, rule.kind === 'noData' ? undefined : property?.unit),
      minutes: rule.noDataMinutes ?? '',
      rule: rule.ruleName,
    });
  const contentKey = rule.kind === 'noData' ? 'iot.alarmNoDataContent' : 'iot.alarmContent';
  const each = (make: (lang: Lang) => string) =>
    Object.fromEntries(LANGS.map((lang) => [lang, make(lang)])) as Record<Lang, string>;
  const titleI18n = each((lang) => text('iot.alarmTitle', lang).slice(0, 200));
  const plain = each((lang) => text(contentKey, lang));
  const contentI18n = each((lang) => `<p>${escapeHtml(plain[lang])}</p>`);
  return {
    title: titleI18n.en,
    content: contentI18n.en,
    titleI18n,
    contentI18n,
    text: plain,
    priority: PRIORITY[record.level] ?? 'normal',
  };
}

/** A value and its unit as the device page writes them: "0.3 MPa", not "0.3MPa". */
function withUnit(value: number | null, unit: string | undefined): string {
  const text = value === null ? '' : String(value);
  return unit && text ? `${text} ${unit}` : text;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}
