/** The console's three languages (spec §1). */
export const LANGS = ['zh', 'tw', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * Picks the language from an explicit choice (the language cookie), else from the browser's
 * preference list (navigator.languages or an Accept-Language header), else English.
 */
export function resolveLang(
  cookieValue: string | undefined,
  preferred: readonly string[] | string | undefined,
): Lang {
  if (isLang(cookieValue)) return cookieValue;
  const list = typeof preferred === 'string' ? parseAcceptLanguage(preferred) : (preferred ?? []);
  for (const tag of list) {
    const lower = tag.toLowerCase();
    if (lower === 'zh-tw' || lower === 'zh-hk' || lower === 'zh-mo' || lower.startsWith('zh-hant'))
      return 'tw';
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return DEFAULT_LANG;
}

function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.tag && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q)
    .map((entry) => entry.tag);
}
