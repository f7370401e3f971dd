import { label, type Label } from '../../entity-kit';
import type { Lang } from '../../i18n/lang';
import { IOT_DICTS } from '../iot/iot-dicts';

export interface DictSeed {
  dictType: string;
  dictValue: string;
  label: Label;
}

const entries = (dictType: string, list: Array<[string, Label]>): DictSeed[] =>
  list.map(([dictValue, text]) => ({ dictType, dictValue, label: text }));

/**
 * The dictionaries every tenant starts with. Their stored names are keys (dict.<type>.<value>)
 * so each person reads them in their own language; names a tenant types in are shown as typed.
 */
export const DEFAULT_DICTS: DictSeed[] = [
  ...entries('org_type', [
    ['company', label('Company', '公司', '公司')],
    ['department', label('Department', '部门', '部門')],
    ['management_station', label('Management station', '管理站', '管理站')],
    ['water_user_association', label('Water users association', '用水户协会', '用水戶協會')],
    ['team', label('Team', '班组', '班組')],
  ]),
  ...entries('zone_type', [
    ['irrigation_district', label('Irrigation district', '灌区', '灌區')],
    ['canal_section', label('Canal section', '渠段', '渠段')],
    ['village', label('Village', '村', '村')],
    ['plot_group', label('Plot group', '地块组', '地塊組')],
  ]),
  // Spec §3: a notification's type is notice or message.
  ...entries('notification_type', [
    ['notice', label('Notice', '通知', '通知')],
    ['message', label('Message', '消息', '訊息')],
  ]),
  ...entries('notification_priority', [
    ['low', label('Low', '低', '低')],
    ['normal', label('Normal', '普通', '普通')],
    ['high', label('High', '高', '高')],
    ['urgent', label('Urgent', '紧急', '緊急')],
  ]),
  // Alarm levels: the four flood warning colours (DOMAINS.md), lowest first.
  ...entries('alarm_level', [
    ['blue', label('Blue', '蓝色', '藍色')],
    ['yellow', label('Yellow', '黄色', '黃色')],
    ['orange', label('Orange', '橙色', '橙色')],
    ['red', label('Red', '红色', '紅色')],
  ]),
  ...IOT_DICTS,
];

const byKey = new Map(
  DEFAULT_DICTS.map((entry) => [`dict.${entry.dictType}.${entry.dictValue}`, entry.label]),
);

/** The stored name of a built-in dictionary entry. */
export const dictNameKey = (entry: DictSeed) => `dict.${entry.dictType}.${entry.dictValue}`;

/** A dictionary name as a person reads it: built-in keys translated, typed names as they are. */
export function dictLabel(name: string, lang: Lang): string {
  return byKey.get(name)?.[lang] ?? name;
}
