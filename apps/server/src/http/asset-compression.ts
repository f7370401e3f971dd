import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Text assets worth compressing, with the type they are served as. */
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
/** Hashed file names only: anything else (sub-folders, dot-dot) goes to the static handler. */
const ASSET_URL = /^\/assets\/([\w.-]+)$/;

export type Encoding = 'br' | 'gzip';

/** How the server compresses an asset (the web benchmark's peer page is sent the same way). */
export const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5, not brotli's 11: the first request of a file waits for it (a 600 KB chunk takes
  // tens of milliseconds at 5 and seconds at 11) for about 10 % more bytes.
  br: (body) =>
    promisify(zlib.brotliCompress)(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(zlib.gzip)(body, { level: 6 }),
};

/** The best encoding the request accepts: brotli, then gzip (a `;q=0` refuses one). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name!.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * Sends the console's hashed text assets brotli- or gzip-compressed when the browser accepts it.
 * Lighthouse counted the uncompressed JavaScript (about 800 KB on /login instead of about 230 KB)
 * against the first paint. A hashed asset never changes, so each file is compressed once, when it
 * is first asked for, and kept in memory (at most the size of the build). Other requests (ranges,
 * HEAD, small or binary files) are left to @fastify/static.
 */
export function registerAssetCompression(app: FastifyInstance, webDist: string) {
  const cache = new Map<string, Promise<Buffer | null>>();
  const compressed = (name: string, encoding: Encoding) => {
    const key = `${encoding}:${name}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = fs.readFile(path.join(webDist, 'assets', name)).then(
        (body) => (body.length < MIN_BYTES ? null : compressors[encoding](body)),
        () => null, // not there: the static handler answers 404
      );
      cache.set(key, entry);
    }
    return entry;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.headers.range) return;
    const name = ASSET_URL.exec(request.url.split('?')[0]!)?.[1];
    const type = name && COMPRESSIBLE[path.extname(name)];
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!name || !type || !encoding) return;
    const body = await compressed(name, encoding);
    if (!body) return;
    return reply
      .header('content-type', type)
      .header('content-encoding', encoding)
      .header('vary', 'accept-encoding')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body);
  });
}
