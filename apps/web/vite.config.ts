import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  server: {
    proxy: {
      // The server (npm run dev -w @shuili/server) listens on 8080; the SPA keeps same-origin /api.
      '/api': { target: 'http://localhost:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React and the router change rarely: one long-cached chunk every route needs.
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            // i18n runtime, also needed by every route.
            {
              name: 'i18n',
              test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
