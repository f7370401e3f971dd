import { LANGS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { say, STRINGS } from './strings';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the public trace pages’ dictionary', () => {
  it('holds the same keys with the same placeholders in zh, tw and en, none empty', () => {
    const keys = Object.keys(STRINGS.en).sort();
    for (const lang of LANGS) {
      expect(Object.keys(STRINGS[lang]).sort(), lang).toEqual(keys);
      for (const key of keys) {
        const text = STRINGS[lang][key as keyof typeof STRINGS.en];
        expect(text.trim(), `${lang} ${key}`).not.toBe('');
        expect(placeholders(text), `${lang} ${key}`).toEqual(
          placeholders(STRINGS.en[key as keyof typeof STRINGS.en]),
        );
      }
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(say('en', 'scans', { count: 3, date: 'today' })).toBe('Scanned 3 times, first on today');
    expect(say('zh', 'scans', { count: 3 })).toBe('已被扫描3次，首次于{date}');
  });
});
