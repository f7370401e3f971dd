import { LANGS, type Lang } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { FEATURE_AREAS, type FeatureArea } from './feature-bundles';
import { mergeTrees, translationFiles, type Tree } from './translation-files';

// The app's source, read by Vite at test time; tests and type declarations are left out.
const sources = import.meta.glob<string>(
  ['../**/*.{ts,tsx}', '!../**/*.test.ts', '!../**/*.d.ts'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

function lookup(tree: Tree, key: string): string | Tree | undefined {
  return key
    .split('.')
    .reduce<string | Tree | undefined>(
      (node, part) => (node && typeof node === 'object' ? node[part] : undefined),
      tree,
    );
}

/**
 * Where each feature area's strings are loaded: with its screens (async-routes.ts), so only code
 * in those screens' folders may use them. Everything else (sign-in, shell, navbar) sees the base
 * file alone, and the keys it uses must be there.
 */
const AREA_SOURCES: Record<FeatureArea, RegExp> = {
  resource: /^\.\.\/(resource|features\/(admin|admin-extra|authority|iot|jobs|workflow))\//,
  admin: /^\.\.\/features\/(admin|admin-extra|authority)\//,
  // The monitor's screens and widgets load the IoT strings with theirs (value texts, device words).
  iot: /^\.\.\/features\/(iot|monitor|home\/overview)\//,
  monitor: /^\.\.\/features\/monitor\//,
  // The workbench's overview loads its own strings and the IoT ones (alarm levels, commands).
  home: /^\.\.\/features\/home\/overview\//,
  // Card-swipe billing's pages, its service desk, card reader and money reports.
  billing: /^\.\.\/features\/billing\//,
  // The area route titles: the route table's (app/area-routes.ts), loaded with the console shell.
  routes: /^\.\.\/app\/(area|async)-routes\.ts$/,
  account: /^\.\.\/features\/(profile|auth\/(second-factor|third-login|reset-link))\//,
  // Traceability's pages that load its strings (app/area-pages.ts).
  trace: /^\.\.\/features\/trace\//,
  // The job scheduler's pages; the workflow pages load the job strings with theirs.
  jobs: /^\.\.\/features\/(jobs|workflow)\//,
  workflow: /^\.\.\/features\/workflow\//,
};

/** The strings a source file can rely on in a language: the base file and its areas' files. */
function visibleTo(file: string, lang: Lang): Tree {
  const areas = FEATURE_AREAS.filter((area) => AREA_SOURCES[area].test(file));
  return mergeTrees(...['base', ...areas].map((part) => translationFiles[part]?.[lang]));
}

/**
 * Keys named in a source file: t('key') and i18n.t('key') calls, and route titles
 * (title: 'route.x'), which the menu, tabs, breadcrumb and page title translate. For keys built at
 * run time (t(`home.greeting.${part}`)) the fixed prefix must name a section.
 */
function usedKeys(text: string): { keys: string[]; prefixes: string[] } {
  return {
    keys: [
      ...[...text.matchAll(/\bt\(\s*(['"])([a-zA-Z][\w.-]*)\1/g)].map((match) => match[2]!),
      ...[...text.matchAll(/\btitle:\s*'(route\.[\w.]+)'/g)].map((match) => match[1]!),
    ],
    prefixes: [...text.matchAll(/\bt\(\s*`([\w.]+)\.\$\{/g)].map((match) => match[1]!),
  };
}

const used = Object.entries(sources).map(([file, text]) => ({ file, ...usedKeys(text) }));

describe('keys used in the source', () => {
  it('finds the keys, so the check itself works', () => {
    expect(used.some(({ keys }) => keys.includes('route.workbench'))).toBe(true);
    expect(used.some(({ keys }) => keys.includes('tagsView.closeAll'))).toBe(true);
    expect(used.some(({ prefixes }) => prefixes.includes('home.greeting'))).toBe(true);
    expect(typeof lookup(visibleTo('../features/iot/x.tsx', 'en'), 'iot')).toBe('object');
    expect(lookup(visibleTo('../layout/x.tsx', 'en'), 'iot')).toBeUndefined();
  });

  for (const lang of LANGS) {
    it(`exist as texts in ${lang}, in the files loaded where they are used`, () => {
      const missing = used.flatMap(({ file, keys, prefixes }) => {
        const strings = visibleTo(file, lang);
        return [
          ...keys.filter((key) => typeof lookup(strings, key) !== 'string'),
          ...prefixes.filter((prefix) => typeof lookup(strings, prefix) !== 'object'),
        ].map((key) => `${file}: ${key}`);
      });
      expect(missing).toEqual([]);
    });
  }
});
