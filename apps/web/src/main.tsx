// First: no schema may try eval under the CSP (see the module).
import './lib/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders';
import { AppRoutes } from './app/AppRoutes';
import { loadConsoleRouteTables } from './app/closed-routes-loader';
import { ERROR_LOG_ENABLED, installErrorLog } from './core/error-log';
import { provideRouteTables } from './core/route-tables';
import { initI18n } from './i18n/i18n';
import { progress } from './lib/progress';
import './main.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lost its #root element');

// Spec §8: uncaught errors are kept for the navbar's error log (production builds).
if (ERROR_LOG_ENABLED) installErrorLog();

// The session, layout and screens reach the route tables (declared by the router) through core/.
provideRouteTables(loadConsoleRouteTables);

// Render only once the language is known, so the first paint is already translated.
void progress.track(initI18n()).then(() => {
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </StrictMode>,
  );
});
