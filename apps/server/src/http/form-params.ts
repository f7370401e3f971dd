import type { FastifyInstance } from 'fastify';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Spec §7 calls take "params": query parameters, or the same names in a form body (a POST with
 * `application/x-www-form-urlencoded`). A route that reads its parameters from the query string
 * and declares no body of its own gets a form body's fields as query parameters, before
 * validation, so one route serves both styles; the form's value wins where both name a field,
 * as on the token endpoint. Routes that declare a body parse the form there themselves.
 */
export function registerFormParams(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    if (!schema?.querystring || schema.body) return;
    if (!request.headers['content-type']?.toLowerCase().startsWith(FORM_TYPE)) return;
    const form = request.body;
    if (!form || typeof form !== 'object') return;
    request.query = { ...(request.query as Record<string, unknown>), ...form };
    request.body = undefined;
  });
}
