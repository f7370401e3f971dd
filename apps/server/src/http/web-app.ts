import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { PUBLIC_TRACE_PAGES } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';
import { registerAssetCompression } from './asset-compression';
import { sendAppError } from './error-handler';

/** The built public trace page (apps/web/trace-home.html). */
const TRACE_PAGE = 'trace-home.html';

/**
 * Serves the built console: hashed assets cached for good (text ones compressed, see
 * asset-compression.ts), index.html never cached, and any other non-API path answered with
 * index.html so the SPA's router decides (including /404). The public trace pages, /traceHome
 * and /search (spec §2's open routes), are the small page of their own, trace-home.html: no
 * console code (docs/traceability.md "Public page").
 */
export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const built = webDist !== '' && fs.existsSync(indexFile);
  if (built) {
    registerAssetCompression(app, webDist);
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    if (fs.existsSync(path.join(webDist, TRACE_PAGE))) {
      for (const page of Object.values(PUBLIC_TRACE_PAGES))
        app.get(page, (_request, reply) =>
          reply.header('cache-control', 'no-cache').type('text/html').sendFile(TRACE_PAGE),
        );
    }
  } else {
    app.log.warn(
      `no built console at ${webDist}: run "npm run build" to serve it (the API works without it)`,
    );
  }

  app.setNotFoundHandler((request, reply) => {
    if (
      request.url.startsWith('/api/') ||
      request.url === '/api' ||
      !built ||
      request.method !== 'GET'
    ) {
      return sendAppError(
        request,
        reply,
        new AppError(404, 'error.routeNotFound', {
          params: { method: request.method, url: request.url.split('?')[0]!.slice(0, 200) },
        }),
      );
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
