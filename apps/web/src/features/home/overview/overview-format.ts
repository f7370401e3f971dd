import type { Lang } from '@shuili/contract';

const LOCALE: Record<Lang, string> = { zh: 'zh-CN', tw: 'zh-TW', en: 'en' };

/** A volume or count as the interface language writes it, to one decimal at most. */
export function formatAmount(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 1 }).format(value);
}
