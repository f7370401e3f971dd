import type { Lang } from '@shuili/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import { useLocaleStore } from './i18n';

const dayjsLocale: Record<Lang, string> = { zh: 'zh-cn', tw: 'zh-tw', en: 'en' };

/**
 * Keeps dayjs (dates in antd pickers and our formatting) in the interface language. Imported by
 * the console, not the sign-in page, which formats no dates.
 */
export function syncDayjsLocale(): () => void {
  dayjs.locale(dayjsLocale[useLocaleStore.getState().lang]);
  return useLocaleStore.subscribe((state) => dayjs.locale(dayjsLocale[state.lang]));
}
