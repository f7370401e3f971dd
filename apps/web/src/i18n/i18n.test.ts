import { describe, expect, it } from 'vitest';
import en from './en.json';
import tw from './tw.json';
import zh from './zh.json';

type Tree = { [key: string]: string | Tree };

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

const catalogues = { zh: flatten(zh), tw: flatten(tw), en: flatten(en) };
const allKeys = [...new Set(Object.values(catalogues).flatMap((c) => [...c.keys()]))].sort();

describe('translations', () => {
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
