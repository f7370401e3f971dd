import type { Lang } from '../i18n/lang';

/** A visible string of an entity declaration, in every console language at once. */
export type Label = Record<Lang, string>;

/** Writes a label as (en, zh, tw), the order the rest of the product lists languages in. */
export function label(en: string, zh: string, tw: string): Label {
  return { en, zh, tw };
}
