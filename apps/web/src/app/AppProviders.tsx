import { ConfigProvider, type ThemeConfig } from 'antd';
// Only the compact algorithm, not the whole theme module (dark and all) in every page's code.
import compactAlgorithm from 'antd/es/theme/themes/compact';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { i18n, useLocaleStore } from '../i18n/i18n';
import { antdSizeOf, useAppStore } from '../layout/app-state';
import { useSettingsStore } from '../layout/settings-store';

export interface AppProvidersProps {
  children: ReactNode;
}

/**
 * Translations, the router, and Ant Design's locale, theme colour and size (spec §2, §3): every
 * antd component follows the language, the settings drawer's colour and the size select.
 */
export function AppProviders({ children }: AppProvidersProps) {
  const antdLocale = useLocaleStore((state) => state.antdLocale);
  const colorPrimary = useSettingsStore((state) => state.theme);
  const size = useAppStore((state) => state.size);
  const { componentSize, compact } = antdSizeOf(size);
  const themeConfig = useMemo<ThemeConfig>(
    () => ({
      token: { colorPrimary, colorLink: colorPrimary },
      // Without an algorithm antd uses its default one.
      algorithm: compact ? compactAlgorithm : undefined,
    }),
    [colorPrimary, compact],
  );

  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale} theme={themeConfig} componentSize={componentSize}>
        <BrowserRouter>{children}</BrowserRouter>
      </ConfigProvider>
    </I18nextProvider>
  );
}
