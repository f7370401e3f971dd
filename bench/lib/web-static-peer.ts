// The peer page's web server, run as its own process (pinned like the Shuili server): a bare
// node:http static server that answers the way Shuili's server answers the console (hashed
// assets cached for good and compressed alike, index.html for every other path, never cached),
// so the comparison is about the pages and not about how they are served.
// Started by peer-process.ts: node --import tsx web-static-peer.ts '{"dir": …, "port": …}'
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import {
  compressors,
  preferredEncoding,
  type Encoding,
} from '../../apps/server/src/http/asset-compression';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const { dir: root, port } = JSON.parse(process.argv[2] ?? '{}') as { dir: string; port: number };

/** Each asset compressed once, as Shuili's server does. */
const cache = new Map<string, Promise<Buffer>>();
function compressed(file: string, encoding: Encoding, raw: Buffer): Promise<Buffer> {
  const key = `${encoding}:${file}`;
  if (!cache.has(key)) cache.set(key, compressors[encoding](raw));
  return cache.get(key)!;
}

const server = http.createServer(async (request, response) => {
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://peer').pathname);
  const file = path.join(root, path.normalize(pathname));
  const isAsset = pathname.startsWith('/assets/') && file.startsWith(root);
  const raw = await fs.readFile(isAsset ? file : path.join(root, 'index.html')).catch(() => null);
  if (!raw) {
    response.writeHead(404).end();
    return;
  }
  const type = TYPES[path.extname(isAsset ? file : 'index.html')] ?? 'application/octet-stream';
  const compressible = isAsset && /^(text|image\/svg)/.test(type) && raw.length >= 1024;
  const encoding = compressible ? preferredEncoding(request.headers['accept-encoding']) : undefined;
  const body = encoding ? await compressed(file, encoding, raw) : raw;
  response.writeHead(200, {
    'content-type': type,
    'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    'content-length': body.length,
    ...(encoding ? { 'content-encoding': encoding, vary: 'accept-encoding' } : {}),
  });
  response.end(body);
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
