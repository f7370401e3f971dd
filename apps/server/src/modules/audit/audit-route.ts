import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route changes nothing although it is not a GET (a spec call that reads with POST, an
     * export, a code check): the operation log leaves it out. The log records what a route does,
     * not which method it happens to use.
     */
    reads?: true;
    /**
     * The operation log's language-neutral name of what the route does, rendered in the reader's
     * language by the console: `add:User` for the generic entity routes (verb and entity), else
     * the spec's call name, which is the route's last path segment unless given here.
     */
    action?: string;
  }
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a call is a change the operation log records: a non-GET route that does not only read. */
export function isWrite(request: FastifyRequest): boolean {
  if (NO_BODY_METHODS.has(request.method)) return false;
  return request.routeOptions.config?.reads !== true;
}

/** The key the operation log stores in `action` (see FastifyContextConfig.action). */
export function actionOf(request: FastifyRequest): string {
  const declared = request.routeOptions.config?.action;
  if (declared) return declared;
  const url = request.routeOptions.url ?? request.url.split('?')[0]!;
  return url.split('/').filter(Boolean).pop() ?? url;
}
