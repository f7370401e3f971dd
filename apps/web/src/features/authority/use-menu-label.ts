import type { ParseKeys } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { menuLabel } from './menu-tree';

/** A menu's name in the current language (route.* keys translated, other names as they are). */
export function useMenuLabel(): (menuName: string) => string {
  const { t } = useTranslation();
  return useCallback((menuName: string) => menuLabel(menuName, (key) => t(key as ParseKeys)), [t]);
}
