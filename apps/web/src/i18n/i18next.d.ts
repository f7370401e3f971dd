import type en from './en.json';

// Typed keys: a typo in t('...') fails the type check instead of showing the raw key.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
