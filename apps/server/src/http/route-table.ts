import type { FastifySchema } from 'fastify';
import type { Permission } from './request-context';

/**
 * One API route as the server registered it. The security suites (isolation and permission
 * matrices, bad-input fuzzing) walk this table, so a route added later is covered without
 * anyone remembering to list it.
 */
export interface RouteEntry {
  methods: string[];
  url: string;
  permission: Permission;
  /** The route's zod schemas (body, querystring, params, headers, response), when declared. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/ route in registration order (filled by the guard's onRoute hook). */
    routeTable: RouteEntry[];
  }
}
