import { ConfigProvider, type ThemeConfig } from 'antd';
// Only the compact algorithm, not the whole theme module (dark and all) in every page's code.
import compactAlgorithm from 'antd/es/theme/themes/compact';
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { i18n, useLocaleStore } from '../i18n/i18n';
import { antdSizeOf, useAppStore } from '../layout/app-state';
import { usePrefersReducedMotion } from '../lib/use-reduced-motion';
import { useSettingsStore } from '../layout/settings-store';

export interface AppProvidersProps {
  children: ReactNode;
}

/**
 * Translations, the router, and Ant Design's locale, theme colour and size (spec §2, §3): every
 * antd component follows the language, the settings drawer's colour and the size select, and
 * the system's reduced-motion setting.
 */
export function AppProviders({ children }: AppProvidersProps) {
  const antdLocale = useLocaleStore((state) => state.antdLocale);
  const colorPrimary = useSettingsStore((state) => state.theme);
  const size = useAppStore((state) => state.size);
  const { componentSize, compact } = antdSizeOf(size);
  const reducedMotion = usePrefersReducedMotion();
  const themeConfig = useMemo<ThemeConfig>(
    () => ({
      // Dropdowns, dialogs and drawers open without their animations for people whose system
      // asks for reduced motion (the browser tests ask for it too, so a click never lands on a
      // dropdown still sliding in).
      token: { colorPrimary, colorLink: colorPrimary, motion: !reducedMotion },
      // Without an algorithm antd uses its default one.
      algorithm: compact ? compactAlgorithm : undefined,
    }),
    [colorPrimary, compact, reducedMotion],
  );

  const withAntdConfig = useCallback(
    (inside: ReactNode) => (
      <ConfigProvider locale={antdLocale} theme={themeConfig} componentSize={componentSize}>
        {inside}
      </ConfigProvider>
    ),
    [antdLocale, themeConfig, componentSize],
  );

  // Toasts and confirmations opened through lib/feedback are antd's static ones, rendered outside
  // this tree: they take the same locale, colour, size and motion from here, so a control's
  // confirmation has the console's colour and opens without zooming for people who asked for
  // reduced motion (a click on its OK never lands on a button still growing into place).
  useEffect(() => {
    ConfigProvider.config({ holderRender: withAntdConfig });
  }, [withAntdConfig]);

  return (
    <I18nextProvider i18n={i18n}>
      {withAntdConfig(<BrowserRouter>{children}</BrowserRouter>)}
    </I18nextProvider>
  );
}
