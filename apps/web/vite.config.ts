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
      treeshake: {
        // react-component's packages declare no sideEffects, so modules re-exported from their
        // indexes stay in the bundle unused (rc-input's text area, for every Input). They are
        // plain components with no import-time effects: let tree-shaking drop what is unused.
        moduleSideEffects: (id) =>
          /node_modules[\\/]@rc-component[\\/]/.test(id) ? false : undefined,
      },
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
            // Ant Design's core (theme, CSS-in-JS, colours, motion, popups) and the form kit
            // (form, button, grid, validation) are needed together by the sign-in page and by
            // nearly every console screen. Left to the default split they become dozens of small
            // chunks, one per set of screens sharing them, with an import/export header each and
            // worse gzip: about 7 KB more for sign-in. Components only some screens use (select,
            // table, segmented, ...) keep the default split, so the workbench does not carry them.
            {
              name: 'antd-base',
              test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors)|@emotion|stylis|@babel[\\/]runtime|clsx|is-mobile|react-is|@rc-component[\\/](util|motion|portal|resize-observer|trigger|tooltip)|antd[\\/]es[\\/](config-provider|theme|tooltip)[\\/])/,
              priority: 8,
            },
            {
              name: 'antd-form',
              test: /node_modules[\\/](antd[\\/]es[\\/](form|button|grid|color-picker)[\\/]|@rc-component[\\/](form|async-validator)|compute-scroll-into-view|scroll-into-view-if-needed)/,
              priority: 7,
            },
          ],
        },
      },
    },
  },
});
