import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The signed-out trace pages, /traceHome and /search (src/public-trace/, docs/traceability.md
 * "Public page"): a build of their own, after the console's, into the same dist/. As an extra
 * input of the console's build they would share chunks with it (the contract's language and
 * constants modules became a chunk of their own, one more request for /login); built apart,
 * neither page's chunks change with the other's code.
 */
export default defineConfig({
  root,
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    rolldownOptions: {
      input: { traceHome: fileURLToPath(new URL('trace-home.html', import.meta.url)) },
    },
  },
});
