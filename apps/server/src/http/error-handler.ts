import { fieldLabel, translate, type Lang } from '@shuili/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DatabaseBusyError, isDatabaseUnavailable, isRowSecurityRefusal } from '../db/pg-errors';
import { AppError, type FieldProblem } from './app-error';
import { issuesToProblems } from './validation-problems';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer errors in RFC 6749 form ({error, error_description}) instead of the envelope. */
    oauth?: boolean;
  }
}

function translateFields(
  lang: Lang,
  fields: FieldProblem[] | undefined,
  labels: Record<string, { label: Record<Lang, string> }> | undefined,
) {
  return fields?.map((problem) => {
    const name = problem.field.split('.')[0]!;
    // Own labels only: an unknown field named "constructor" must not find Object's.
    const own = labels && Object.hasOwn(labels, name) ? labels[name] : undefined;
    return {
      field: problem.field,
      message: translate(lang, problem.key, {
        field: own?.label[lang] ?? fieldLabel(lang, problem.field),
        ...problem.params,
      }),
    };
  });
}

/** An error's fields and headline in one language (the headline is its first field's message). */
export function describeAppError(request: FastifyRequest, error: AppError, lang: Lang) {
  const errors = translateFields(
    lang,
    error.options.fields,
    request.routeOptions.config?.fieldLabels,
  );
  // A validation error's headline is its first field's message, so a toast alone is useful.
  const message = errors?.[0]?.message ?? translate(lang, error.key, error.options.params);
  return { errors, message };
}

/** Translates and sends an AppError in the form the route speaks. */
export function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const { errors, message } = describeAppError(request, error, request.lang ?? 'en');
  for (const [name, value] of Object.entries(error.options.headers ?? {}))
    reply.header(name, value);
  reply.code(error.status);
  if (request.routeOptions.config?.oauth) {
    return reply.send({
      error:
        error.options.oauthError ?? (error.status === 400 ? 'invalid_request' : 'invalid_grant'),
      error_description: message,
      ...(errors ? { errors } : {}),
      ...error.options.extra,
    });
  }
  return reply.send({
    code: error.options.code ?? error.status,
    message,
    data: null,
    ...(errors ? { errors } : {}),
    ...(error.options.oauthError && error.status === 401
      ? { error: error.options.oauthError }
      : {}),
  });
}

/** Maps errors Fastify itself raises (body parsing, media type, size) to translated AppErrors. */
function fromFastifyError(error: FastifyError): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'error.payloadTooLarge');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'error.unsupportedMediaType', {
        params: { type: error.message.split(': ').pop() ?? '' },
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'error.badJson', { oauthError: 'invalid_request' });
    default:
      if (error instanceof SyntaxError)
        return new AppError(400, 'error.badJson', { oauthError: 'invalid_request' });
      return undefined;
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendAppError(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The part that failed (body, querystring) names problems of the whole input.
      const fields = issuesToProblems(error.validation as never, error.validationContext);
      return sendAppError(
        request,
        reply,
        new AppError(400, 'validation.invalid', { fields, oauthError: 'invalid_request' }),
      );
    }
    const known = fromFastifyError(error);
    if (known) return sendAppError(request, reply, known);
    if (error.statusCode && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply
        .code(error.statusCode)
        .send({ code: error.statusCode, message: error.message, data: null });
    }
    if (isRowSecurityRefusal(error)) {
      // Row-level security refused a write: a caller confined to zones reached past them (a
      // device moved out of their zones, a product-wide rule). Not a bug: say so.
      return sendAppError(request, reply, new AppError(403, 'auth.outsideZones'));
    }
    if (error instanceof DatabaseBusyError) {
      // Not a bug either: more requests than connections for longer than a request should wait.
      request.log.warn('database connections busy');
      return sendAppError(
        request,
        reply,
        new AppError(503, 'error.serverBusy', { headers: { 'retry-after': '2' } }),
      );
    }
    if (isDatabaseUnavailable(error)) {
      // Not a bug: the database is stopped or restarting; the pool reconnects by itself.
      request.log.warn({ err: error }, 'database unavailable');
      return sendAppError(
        request,
        reply,
        new AppError(503, 'error.databaseUnavailable', { headers: { 'retry-after': '5' } }),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendAppError(request, reply, new AppError(500, 'error.server'));
  });
}
