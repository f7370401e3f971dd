import { DEFAULT_DICTS, translate, type AlarmLevel, type Lang } from '@shuili/contract';
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

/** Stored notices are read by everyone of the tenant: written in Chinese and English at once. */
const NOTICE_LANGS: Lang[] = ['zh', 'en'];

function levelName(level: AlarmLevel, lang: Lang): string {
  return (
    DEFAULT_DICTS.find((entry) => entry.dictType === 'alarm_level' && entry.dictValue === level)
      ?.label[lang] ?? level
  );
}

/** The bell notice of a raised alarm: title and content naming device, property and values. */
export function alarmNotice(
  record: AlarmRecordRow,
  rule: AlarmRuleSpec,
  device: AlarmDevice | undefined,
): { title: string; content: string; priority: string } {
  const property = device
    ? thingModelOf(device.thing_model).properties.find((one) => one.key === rule.propertyKey)
    : undefined;
  const text = (key: string, lang: Lang) =>
    translate(lang, key, {
      level: levelName(record.level, lang),
      device: device?.device_name || device?.device_no || String(record.device_id),
      property: property ? `${property.name[lang]}` : rule.propertyKey,
      value: `${record.value ?? ''}${property?.unit ?? ''}`,
      threshold: `${record.threshold ?? ''}${rule.kind === 'noData' ? '' : (property?.unit ?? '')}`,
      minutes: rule.noDataMinutes ?? '',
      rule: rule.ruleName,
    });
  const contentKey = rule.kind === 'noData' ? 'iot.alarmNoDataContent' : 'iot.alarmContent';
  return {
    title: NOTICE_LANGS.map((lang) => text('iot.alarmTitle', lang))
      .join(' / ')
      .slice(0, 200),
    content: NOTICE_LANGS.map((lang) => `<p>${escapeHtml(text(contentKey, lang))}</p>`).join(''),
    priority: PRIORITY[record.level] ?? 'normal',
  };
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
