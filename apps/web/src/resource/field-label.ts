import type { Label, Lang } from '@shuili/contract';
import { useCallback } from 'react';
import { useLocaleStore } from '../i18n/i18n';

/** A declaration's label in the given language. */
export function labelIn(label: Label, lang: Lang): string {
  return label[lang] || label.en;
}

/** Picks declaration labels in the interface's current language. */
export function useLabel(): (label: Label) => string {
  const lang = useLocaleStore((state) => state.lang);
  return useCallback((label: Label) => labelIn(label, lang), [lang]);
}
