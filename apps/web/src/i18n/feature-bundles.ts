import type { Lang } from '@shuili/contract';

type Strings = Record<string, unknown>;
/** One strings file per language, fetched when first needed. */
export type Bundle = Record<Lang, () => Promise<{ default: Strings }>>;

// The console's feature areas (features/<area>/): their strings arrive with their screens
// (lazyPage). This table is a chunk of its own, fetched with the first signed-in screen, so the
// sign-in page pays neither for the areas' strings nor for the table naming them.
export const featureBundles = {
  // The generic entity screens (search, table, dialogs) that the admin and IoT screens are built on.
  resource: {
    zh: () => import('./features/resource/zh.json'),
    tw: () => import('./features/resource/tw.json'),
    en: () => import('./features/resource/en.json'),
  },
  // Admin and authority screens (roles, user grants, online users, zones).
  admin: {
    zh: () => import('./features/admin/zh.json'),
    tw: () => import('./features/admin/tw.json'),
    en: () => import('./features/admin/en.json'),
  },
  iot: {
    zh: () => import('./features/iot/zh.json'),
    tw: () => import('./features/iot/tw.json'),
    en: () => import('./features/iot/en.json'),
  },
  // The monitoring areas' screens and widgets (features/monitor).
  monitor: {
    zh: () => import('./features/monitor/zh.json'),
    tw: () => import('./features/monitor/tw.json'),
    en: () => import('./features/monitor/en.json'),
  },
  // The monitoring areas' route titles (menus, tabs, page titles): the console shell loads them
  // (console-route-page.ts), the sign-in page never does.
  routes: {
    zh: () => import('./features/routes/zh.json'),
    tw: () => import('./features/routes/tw.json'),
    en: () => import('./features/routes/en.json'),
  },
  // The workbench's operations overview (features/home/overview), loaded with it.
  home: {
    zh: () => import('./features/home/zh.json'),
    tw: () => import('./features/home/tw.json'),
    en: () => import('./features/home/en.json'),
  },
  // Card-swipe billing's pages (features/billing): prices, water rights, the service desk and
  // its card reader, the money reports. One file: a cashier's pages use most of it.
  billing: {
    zh: () => import('./features/billing/zh.json'),
    tw: () => import('./features/billing/tw.json'),
    en: () => import('./features/billing/en.json'),
  },
  // Traceability's own pages (features/trace): the digital map, a batch's resume and the public
  // page's settings; its entity screens speak the entity kit's strings.
  trace: {
    zh: () => import('./features/trace/zh.json'),
    tw: () => import('./features/trace/tw.json'),
    en: () => import('./features/trace/en.json'),
  },
  // Two-step verification and sessions: the profile's cards and the sign-in's second step, which
  // only accounts with a second factor reach.
  account: {
    zh: () => import('./features/account/zh.json'),
    tw: () => import('./features/account/tw.json'),
    en: () => import('./features/account/en.json'),
  },
  // The job scheduler's pages (features/jobs): jobs, their instances, the nodes.
  jobs: {
    zh: () => import('./features/jobs/zh.json'),
    tw: () => import('./features/jobs/tw.json'),
    en: () => import('./features/jobs/en.json'),
  },
  // DAG workflows of jobs (features/workflow): the editor and the runs drawn live.
  workflow: {
    zh: () => import('./features/workflow/zh.json'),
    tw: () => import('./features/workflow/tw.json'),
    en: () => import('./features/workflow/en.json'),
  },
} satisfies Record<string, Bundle>;

/** A console area whose strings load with its screens (i18n/features/<area>/<lang>.json). */
export type FeatureArea = keyof typeof featureBundles;

/** The feature areas, for the translation tests (each must have its files, and only those). */
export const FEATURE_AREAS = Object.keys(featureBundles) as FeatureArea[];
