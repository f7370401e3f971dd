import { LANGUAGE_COOKIE, LANGS, resolveLang, type Lang } from '@shuili/contract';
import type { Locale } from 'antd/es/locale';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { create } from 'zustand';
import { getCookie, setCookie } from '../lib/cookies';
import type { Bundle, FeatureArea } from './feature-bundles';

export type { FeatureArea } from './feature-bundles';

// Each language is its own chunk: a visitor downloads only the one they read. The base file holds
// what sign-in and the console shell need; the feature areas' files (feature-bundles.ts) arrive
// with their screens, so /login never pays for them.
const baseBundle: Bundle = {
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

// One fetch per file and language, shared by all who ask; a failed one is tried again next time.
const fetched = new Map<string, Promise<void>>();

async function fetchStrings(lang: Lang, part: 'base' | FeatureArea) {
  if (part === 'base') return baseBundle[lang]();
  const { featureBundles } = await import('./feature-bundles');
  return featureBundles[part][lang]();
}

function loadStrings(lang: Lang, part: 'base' | FeatureArea): Promise<void> {
  const key = `${part}/${lang}`;
  let done = fetched.get(key);
  if (!done) {
    done = fetchStrings(lang, part).then(
      // Deep merge: the base file and an area may share a section (adminExtra.menuSwitch is the
      // navbar's), and an area may arrive before the base file during a language switch.
      (strings) => void i18n.addResourceBundle(lang, 'translation', strings.default, true, true),
      (error: unknown) => {
        fetched.delete(key);
        throw error;
      },
    );
    fetched.set(key, done);
  }
  return done;
}

/** Areas whose screens have been opened: switching language brings their strings along. */
const usedAreas = new Set<FeatureArea>();
// The language on screen and the one a switch is fetching: a screen opened mid-switch needs both.
let shownLang: Lang | undefined;
let nextLang: Lang | undefined;

/**
 * Fetches feature areas' strings (lazyPage chains this into a screen's import, so the screen
 * never renders with missing keys). Callers keep the full key space (iot.device.title and all).
 */
export async function loadFeatureStrings(areas: readonly FeatureArea[]): Promise<void> {
  for (const area of areas) usedAreas.add(area);
  const langs = new Set([shownLang, nextLang].filter((lang) => lang !== undefined));
  await Promise.all([...langs].flatMap((lang) => areas.map((area) => loadStrings(lang, area))));
}

async function applyLang(lang: Lang, remember: boolean): Promise<void> {
  nextLang = lang;
  const parts = ['base', ...usedAreas] as const;
  const [, antdLocale] = await Promise.all([
    Promise.all(parts.map((part) => loadStrings(lang, part))),
    antdLocales[lang](),
  ]);
  // Before anyone hears of the switch: the server reads this cookie to translate what it sends,
  // and listeners ask it again right away.
  if (remember) setCookie(LANGUAGE_COOKIE, lang, { expires: 365 });
  await i18n.changeLanguage(lang);
  shownLang = lang;
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
