import { LANGUAGE_COOKIE, LANGS, resolveLang, type Lang } from '@shuili/contract';
import type { Locale } from 'antd/es/locale';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { create } from 'zustand';
import { getCookie, setCookie } from '../lib/cookies';
import type en from './en.json';

type Translation = typeof en;

// Each language is its own chunk: a visitor downloads only the one they read.
const bundles: Record<Lang, () => Promise<{ default: Translation }>> = {
  zh: () => import('./zh.json'),
  tw: () => import('./tw.json'),
  en: () => import('./en.json'),
};

// English is antd's built-in default, so only the Chinese locales are fetched.
const antdLocales: Record<Lang, () => Promise<Locale | undefined>> = {
  zh: () => import('antd/es/locale/zh_CN').then((module) => module.default),
  tw: () => import('antd/es/locale/zh_TW').then((module) => module.default),
  en: () => Promise.resolve(undefined),
};

const htmlLang: Record<Lang, string> = { zh: 'zh-CN', tw: 'zh-TW', en: 'en' };

/** The app's i18next instance (its own, so tests and other bundles never share state). */
export const i18n = i18next.createInstance();

interface LocaleState {
  lang: Lang;
  antdLocale: Locale | undefined;
}

/** The active language and its Ant Design locale; ConfigProvider re-renders from it. */
export const useLocaleStore = create<LocaleState>(() => ({ lang: 'en', antdLocale: undefined }));

/** The language cookie if set, else the browser's preferences, else English (spec §1). */
export function detectLang(): Lang {
  return resolveLang(getCookie(LANGUAGE_COOKIE), navigator.languages);
}

async function applyLang(lang: Lang, remember: boolean): Promise<void> {
  const [translation, antdLocale] = await Promise.all([bundles[lang](), antdLocales[lang]()]);
  if (!i18n.hasResourceBundle(lang, 'translation')) {
    i18n.addResourceBundle(lang, 'translation', translation.default);
  }
  // Before anyone hears of the switch: the server reads this cookie to translate what it sends,
  // and listeners ask it again right away.
  if (remember) setCookie(LANGUAGE_COOKIE, lang, { expires: 365 });
  await i18n.changeLanguage(lang);
  document.documentElement.lang = htmlLang[lang];
  useLocaleStore.setState({ lang, antdLocale });
}

/** Initialises i18next with the detected language before the first render. */
export async function initI18n(): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: undefined,
    supportedLngs: [...LANGS],
    // Every key exists in every language (i18n.test.ts), so there is nothing to fall back to.
    fallbackLng: false,
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  await applyLang(detectLang(), false);
}

/** Switches the interface language and remembers it in the language cookie. */
export async function setLanguage(lang: Lang): Promise<void> {
  await applyLang(lang, true);
}
