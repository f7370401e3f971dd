import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REPO_ROOT } from '../../config';
import { notFound } from '../../http/app-error';

/** The demo clip: a few seconds of test pattern as an HLS playlist and its segments. */
const DEMO_DIR = path.join(REPO_ROOT, 'apps/server/assets/video/demo');

const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
};

/**
 * GET /media/video/demo/{file}: the demo cameras' stream, served by the server itself so that
 * the live grid plays something real on a fresh `npm start` with nothing else installed. Public
 * like the console's own files (a test pattern, no tenant's data); only the clip's own file
 * names are answered, never a path.
 */
export async function demoMediaRoutes(app: FastifyInstance) {
  app.get('/media/video/demo/:file', {
    config: { permission: 'public' },
    schema: { hide: true, params: z.object({ file: z.string().max(64) }) },
    handler: async (request, reply) => {
      const { file } = request.params as { file: string };
      const match = /^[a-z0-9-]+\.(m3u8|ts)$/.exec(file);
      if (!match) throw notFound();
      const full = path.join(DEMO_DIR, file);
      const stat = await fs.stat(full).catch(() => undefined);
      if (!stat?.isFile()) throw notFound();
      return reply
        .header('content-type', TYPES[match[1]!]!)
        .header('content-length', stat.size)
        .header('cache-control', 'public, max-age=3600')
        .send(createReadStream(full));
    },
  });
}
