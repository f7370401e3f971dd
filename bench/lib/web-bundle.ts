import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { round } from './stats';

/** Bytes of a set of files: on the wire, as files, and as gzip and brotli would send them. */
export interface Transfer {
  files: number;
  /** The response bodies as the server sent them (compressed when it compressed them). */
  sentBytes: number;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

/** What one route made the browser download, by kind, plus the entry's static-import closure. */
export interface RouteBundle {
  js: Transfer;
  css: Transfer;
  /**
   * The entry script of the HTML and everything it imports statically, i.e. the JavaScript that
   * has to arrive before the app can start: the "initial JS" (e2e/bundle.test.ts's
   * INITIAL_BUDGET measures the same closure).
   */
  initialJs: Transfer;
  /** The files' names, for the report. */
  jsFiles: string[];
  cssFiles: string[];
}

// Sizes are computed the way e2e/bundle.test.ts computes its budgets: gzip at level 9 (a
// static-file compressor's setting), and brotli at its best quality, as precompressed assets are.
// Brotli 11 takes seconds for a large route, so each file (hashed name and length: the same
// content) is compressed once per run, on the thread pool.
const compressedSizes = new Map<string, Promise<{ gzip: number; brotli: number }>>();
function sizesOf(name: string, body: Buffer) {
  const key = `${name}:${body.length}`;
  let sizes = compressedSizes.get(key);
  if (!sizes) {
    sizes = Promise.all([
      promisify(zlib.gzip)(body, { level: 9 }),
      promisify(zlib.brotliCompress)(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ]).then(([gzip, brotli]) => ({ gzip: gzip.length, brotli: brotli.length }));
    compressedSizes.set(key, sizes);
  }
  return sizes;
}

interface Received {
  name: string;
  body: Buffer;
  sentBytes: number;
}

async function transfer(files: Received[]): Promise<Transfer> {
  const sizes = await Promise.all(files.map((file) => sizesOf(file.name, file.body)));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    files: files.length,
    sentBytes: sum(files.map((file) => file.sentBytes)),
    rawBytes: sum(files.map((file) => file.body.length)),
    gzipBytes: sum(sizes.map((size) => size.gzip)),
    brotliBytes: sum(sizes.map((size) => size.brotli)),
  };
}

const fileName = (url: string) => new URL(url).pathname.split('/').pop()!;

/** The relative modules a built chunk imports statically (Vite writes `from"./x.js"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((match) => match[1]!);
}

/**
 * Records every script and stylesheet the page receives from now on. `measure` waits for the
 * bodies and sizes them; call it once the route has loaded (network idle).
 */
export function recordBundle(page: Page): { measure(): Promise<RouteBundle> } {
  const scripts = new Map<string, Promise<Received>>();
  const styles = new Map<string, Promise<Received>>();
  let entry: string | undefined;
  page.on('response', (response) => {
    const kind = response.request().resourceType();
    if (kind === 'document' && response.request().frame() === page.mainFrame()) {
      void response.text().then(
        (html) =>
          (entry = /<script[^>]+type="module"[^>]+src="[^"]*\/([^"/]+\.js)"/.exec(html)?.[1]),
        () => undefined,
      );
    }
    const received = async () => ({
      name: fileName(response.url()),
      body: await response.body(),
      sentBytes: (await response.request().sizes()).responseBodySize,
    });
    if (kind === 'script') scripts.set(fileName(response.url()), received());
    if (kind === 'stylesheet') styles.set(fileName(response.url()), received());
  });
  return {
    async measure() {
      const js = new Map<string, Received>();
      for (const [name, file] of scripts) js.set(name, await file);
      const css = new Map<string, Received>();
      for (const [name, file] of styles) css.set(name, await file);
      if (!entry || !js.has(entry)) throw new Error(`the page's entry script was not loaded`);
      const closure = new Set<string>();
      const todo = [entry];
      for (let name = todo.pop(); name; name = todo.pop()) {
        if (closure.has(name)) continue;
        const code = js.get(name);
        if (!code) throw new Error(`${name} is imported statically but was not loaded`);
        closure.add(name);
        todo.push(...staticImports(code.body.toString('utf8')));
      }
      return {
        js: await transfer([...js.values()]),
        css: await transfer([...css.values()]),
        initialJs: await transfer([...closure].map((name) => js.get(name)!)),
        jsFiles: [...js.keys()].sort(),
        cssFiles: [...css.keys()].sort(),
      };
    },
  };
}

/** A transfer's sizes in KB (one decimal), as the web benchmarks write them down. */
export const transferInKB = (transfer: Transfer) => ({
  files: transfer.files,
  sentKB: round(transfer.sentBytes / 1024, 1),
  rawKB: round(transfer.rawBytes / 1024, 1),
  gzipKB: round(transfer.gzipBytes / 1024, 1),
  brotliKB: round(transfer.brotliBytes / 1024, 1),
});
