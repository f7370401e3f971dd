import { LANGS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { FEATURE_AREAS } from './feature-bundles';
import { mergedCatalogue, translationFiles, type Tree } from './translation-files';

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

// Every language's catalogue: the base file and the feature areas' files together.
const catalogues = {
  zh: flatten(mergedCatalogue('zh')),
  tw: flatten(mergedCatalogue('tw')),
  en: flatten(mergedCatalogue('en')),
};
const allKeys = [...new Set(Object.values(catalogues).flatMap((c) => [...c.keys()]))].sort();

describe('translations', () => {
  it('has a file per language for the base and for each feature area i18n.ts loads', () => {
    expect(Object.keys(translationFiles).sort()).toEqual(['base', ...FEATURE_AREAS].sort());
    for (const files of Object.values(translationFiles)) {
      expect(Object.keys(files).sort()).toEqual([...LANGS].sort());
    }
  });

  // A key must sit in the same file in every language (else a screen would find it in one
  // language only), and in one file only (else which text wins depends on the load order).
  it('keeps each key in one file, the same one in every language', () => {
    const where = new Map<string, Set<string>>();
    for (const [part, files] of Object.entries(translationFiles)) {
      for (const [lang, tree] of Object.entries(files)) {
        for (const key of flatten(tree).keys()) {
          where.set(key, (where.get(key) ?? new Set()).add(`${part}/${lang}`));
        }
      }
    }
    const misplaced = [...where].filter(
      ([, files]) =>
        files.size !== LANGS.length || new Set([...files].map((f) => f.split('/')[0])).size !== 1,
    );
    expect(misplaced.map(([key, files]) => `${key}: ${[...files].join(', ')}`)).toEqual([]);
  });

  for (const [lang, catalogue] of Object.entries(catalogues)) {
    it(`${lang} has every key`, () => {
      expect(allKeys.filter((key) => !catalogue.has(key))).toEqual([]);
    });

    it(`${lang} has no empty text`, () => {
      expect([...catalogue].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual(
        [],
      );
    });
  }

  it('uses the same placeholders in every language', () => {
    const mismatched = allKeys.filter((key) => {
      const want = JSON.stringify(placeholders(catalogues.en.get(key) ?? ''));
      return (
        JSON.stringify(placeholders(catalogues.zh.get(key) ?? '')) !== want ||
        JSON.stringify(placeholders(catalogues.tw.get(key) ?? '')) !== want
      );
    });
    expect(mismatched).toEqual([]);
  });

  it('names the product as the spec does', () => {
    expect(catalogues.zh.get('smart IoT management system')).toBe('智慧物联网管理系统');
    expect(catalogues.tw.get('smart IoT management system')).toBe('智慧物聯網管理系統');
    expect(catalogues.zh.get('irrigation system')).toBe('灌溉系统');
    expect(catalogues.tw.get('irrigation system')).toBe('灌溉系統');
  });
});
