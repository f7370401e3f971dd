import { describe, expect, it } from 'vitest';
import { LANGS, resolveLang } from './lang';
import { SERVER_MESSAGES, translate } from './messages';

describe('server messages', () => {
  it('exist in every language with the same keys and placeholders', () => {
    const keys = Object.keys(SERVER_MESSAGES.en).sort();
    for (const lang of LANGS) {
      expect(Object.keys(SERVER_MESSAGES[lang]).sort()).toEqual(keys);
      for (const key of keys) {
        const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
        expect(placeholders(SERVER_MESSAGES[lang][key]!), `${lang} ${key}`).toEqual(
          placeholders(SERVER_MESSAGES.en[key]!),
        );
        expect(SERVER_MESSAGES[lang][key]!.trim(), `${lang} ${key}`).not.toBe('');
      }
    }
  });

  it('fills placeholders and falls back to the key', () => {
    expect(translate('zh', 'auth.throttled', { seconds: 30 })).toBe('尝试次数过多，请 30 秒后再试');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
  });
});

describe('resolveLang', () => {
  it('takes the cookie, then the browser, else English', () => {
    expect(resolveLang('tw', 'en-US')).toBe('tw');
    expect(resolveLang('fr', 'zh-CN,zh;q=0.9')).toBe('zh');
    expect(resolveLang(undefined, 'zh-TW,zh;q=0.9,en;q=0.8')).toBe('tw');
    expect(resolveLang(undefined, 'zh-Hant-HK')).toBe('tw');
    expect(resolveLang(undefined, 'de-DE,en;q=0.5,zh;q=0.4')).toBe('en');
    expect(resolveLang(undefined, ['fr-FR', 'zh-CN'])).toBe('zh');
    expect(resolveLang(undefined, 'fr-FR,de')).toBe('en');
    expect(resolveLang(undefined, undefined)).toBe('en');
  });
});
