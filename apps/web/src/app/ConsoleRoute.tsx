import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocaleStore } from '../i18n/i18n';
import { syncDayjsLocale } from '../i18n/sync-dayjs-locale';
import { BasicLayout } from '../layout/BasicLayout';
import { selectModule } from '../lib/deferred/DeferredSelect';
import { queryClient } from '../core/query-client';
import { refreshUser } from '../core/session';

// The console uses Select everywhere: its deferred ones (the navbar's language) need not wait.
selectModule.preload();

/** The signed-in part of the app: server-state cache and date locale around the console shell. */
export function ConsoleRoute() {
  useEffect(() => syncDayjsLocale(), []);

  useEffect(
    () =>
      useLocaleStore.subscribe((state, previous) => {
        if (state.lang === previous.lang) return;
        // Server-translated data (the tenant name) follows the new language.
        void refreshUser().catch(() => undefined);
        void queryClient.invalidateQueries();
      }),
    [],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <BasicLayout />
    </QueryClientProvider>
  );
}
