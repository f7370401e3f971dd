import type en from './en.json';
import type account from './features/account/en.json';
import type admin from './features/admin/en.json';
import type billing from './features/billing/en.json';
import type home from './features/home/en.json';
import type iot from './features/iot/en.json';
import type jobs from './features/jobs/en.json';
import type monitor from './features/monitor/en.json';
import type resource from './features/resource/en.json';
import type routes from './features/routes/en.json';
import type trace from './features/trace/en.json';
import type workflow from './features/workflow/en.json';

// Typed keys: a typo in t('...') fails the type check instead of showing the raw key. The key space
// is the base file and every feature area's file together (i18n.ts loads the areas with their
// screens; keys-used.test.ts checks that each key is used where its file is loaded).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en &
        typeof resource &
        typeof admin &
        typeof iot &
        typeof monitor &
        typeof billing &
        typeof home &
        typeof routes &
        typeof trace &
        typeof workflow &
        typeof account &
        typeof jobs;
    };
  }
}
