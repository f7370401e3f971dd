import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { i18n, useLocaleStore } from '../i18n/i18n';

export interface AppProvidersProps {
  children: ReactNode;
}

/** Translations, the Ant Design locale and the router, around the whole app. */
export function AppProviders({ children }: AppProvidersProps) {
  const antdLocale = useLocaleStore((state) => state.antdLocale);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale}>
        <BrowserRouter>{children}</BrowserRouter>
      </ConfigProvider>
    </I18nextProvider>
  );
}
