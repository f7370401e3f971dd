import { FUZZY_SEARCH } from '@shuili/contract';
import Fuse from 'fuse.js';
import { pinyin } from 'pinyin-pro';
import type { AppRoute } from '../core/app-route';
import { routeTrails } from '../core/generate-routes';

// This module (with the pinyin dictionary) is loaded when the search first opens, never by the
// sign-in page or the first paint of the console.

/** One screen the menu search can find. */
export interface SearchItem {
  path: string;
  /** Translated titles from the top group down to the screen. */
  title: string[];
  /** Pinyin of the Chinese titles: full ('yonghu') and initials ('yh'). */
  pinyin: string[];
}

const HAN = /\p{Script=Han}/u;

/** Full pinyin and initials of a title with Chinese characters, none for other titles. */
export function pinyinOf(text: string): string[] {
  if (!HAN.test(text)) return [];
  const options = { toneType: 'none', type: 'array', nonZh: 'removed' } as const;
  const full = pinyin(text, options).join('');
  const initials = pinyin(text, { ...options, pattern: 'first' }).join('');
  return [full, initials];
}

/**
 * The screens to search: every titled screen a user has, including the constant ones the menu
 * hides (profile, my notifications), except routes with parameters and the refresh redirect.
 */
export function buildSearchIndex(
  routes: readonly AppRoute[],
  translate: (key: string) => string,
  withPinyin: boolean,
): SearchItem[] {
  const seen = new Set<string>();
  const items: SearchItem[] = [];
  for (const { path, trail } of routeTrails(routes)) {
    const route = trail.at(-1)!.route;
    if (!route.page || !route.meta?.title || /[:*]/.test(path) || seen.has(path)) continue;
    seen.add(path);
    const title = trail.flatMap((link) =>
      link.route.meta?.title ? [translate(link.route.meta.title)] : [],
    );
    items.push({ path, title, pinyin: withPinyin ? title.flatMap(pinyinOf) : [] });
  }
  return items;
}

/** Spec §9 fuzzy search over titles, pinyin and paths; the best matches first. */
export function createMenuSearch(items: readonly SearchItem[]): (query: string) => SearchItem[] {
  const fuse = new Fuse(items, {
    shouldSort: true,
    threshold: FUZZY_SEARCH.threshold,
    minMatchCharLength: FUZZY_SEARCH.minMatchCharLength,
    keys: [
      { name: 'title', weight: FUZZY_SEARCH.weights.title },
      { name: 'pinyin', weight: FUZZY_SEARCH.weights.pinyin },
      { name: 'path', weight: FUZZY_SEARCH.weights.path },
    ],
  });
  return (query) => {
    // Fuse has no pattern limit of its own any more; the spec's applies here.
    const pattern = query.trim().slice(0, FUZZY_SEARCH.maxPatternLength);
    return pattern ? fuse.search(pattern).map((result) => result.item) : [];
  };
}
