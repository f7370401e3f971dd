import { describe, expect, it } from 'vitest';
import en from './en.json';
import tw from './tw.json';
import zh from './zh.json';

type Tree = { [key: string]: string | Tree };

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
 * Keys named in the source: t('key') and i18n.t('key') calls, and route titles (title: 'route.x'),
 * which the menu, tabs, breadcrumb and page title translate. For keys built at run time
 * (t(`home.greeting.${part}`)) the fixed prefix must name a section.
 */
function usedKeys(): { keys: Set<string>; prefixes: Set<string> } {
  const keys = new Set<string>();
  const prefixes = new Set<string>();
  for (const text of Object.values(sources)) {
    for (const match of text.matchAll(/\bt\(\s*(['"])([a-zA-Z][\w.-]*)\1/g)) keys.add(match[2]!);
    for (const match of text.matchAll(/\btitle:\s*'(route\.[\w.]+)'/g)) keys.add(match[1]!);
    for (const match of text.matchAll(/\bt\(\s*`([\w.]+)\.\$\{/g)) prefixes.add(match[1]!);
  }
  return { keys, prefixes };
}

const catalogues = { zh: zh as Tree, tw: tw as Tree, en: en as Tree };

describe('keys used in the source', () => {
  const { keys, prefixes } = usedKeys();

  it('finds the keys, so the check itself works', () => {
    expect(keys.has('route.workbench')).toBe(true);
    expect(keys.has('tagsView.closeAll')).toBe(true);
    expect(prefixes.has('home.greeting')).toBe(true);
  });

  for (const [lang, catalogue] of Object.entries(catalogues)) {
    it(`exist as texts in ${lang}`, () => {
      expect([...keys].filter((key) => typeof lookup(catalogue, key) !== 'string')).toEqual([]);
      expect(
        [...prefixes].filter((prefix) => typeof lookup(catalogue, prefix) !== 'object'),
      ).toEqual([]);
    });
  }
});
