import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AuthBusyError } from './auth-gate';
import {
  ExternalAuthService,
  type BrokerAccess,
  type ExternalAuthDeps,
} from './external-auth.service';

const tags = ['iot'];
const text = (max: number) => z.string().max(max);
/** CONNECT as both brokers send it (JSON, or a form for mosquitto-go-auth's params_mode form). */
const connectBody = z.object({
  clientid: text(256),
  username: text(256).optional().default(''),
  password: text(4096).optional().default(''),
});
const superuserBody = z.object({ username: text(256) });
const emqxAclBody = z.object({
  clientid: text(256),
  username: text(256).optional().default(''),
  topic: text(1024),
  action: z.enum(['publish', 'subscribe']),
});
/** mosquitto-go-auth: acc 1 read (delivery), 2 write (publish), 3 read and write, 4 subscribe. */
const goAuthAclBody = z.object({
  clientid: text(256),
  username: text(256).optional().default(''),
  topic: text(1024),
  acc: z.coerce.number().int().min(1).max(4),
});
const GO_AUTH_ACCESS: Record<number, BrokerAccess> = {
  1: 'read',
  2: 'publish',
  3: 'readwrite',
  4: 'subscribe',
};

type Answer = (reply: FastifyReply, allowed: boolean, status?: number) => FastifyReply;
/** EMQX 5: 200 with a result (any other status means "ignore", which its authz may allow). */
const emqxAuthn: Answer = (reply, allowed, status = 200) =>
  reply.code(status).send({ result: allowed ? 'allow' : 'deny', is_superuser: false });
const emqxAuthz: Answer = (reply, allowed, status = 200) =>
  reply.code(status).send({ result: allowed ? 'allow' : 'deny' });
/** mosquitto-go-auth: any 2xx allows (response_mode status; `ok` serves response_mode json). */
const goAuth: Answer = (reply, allowed, status) =>
  reply.code(status ?? (allowed ? 200 : 403)).send({ ok: allowed, error: allowed ? '' : 'denied' });

/**
 * The HTTP auth hooks of an external broker (README "External broker auth"): EMQX 5 HTTP
 * authentication and authorization, and the mosquitto-go-auth HTTP backend. Public routes, but
 * only a caller presenting MQTT_AUTH_SECRET gets anything but a refusal.
 */
export async function externalAuthRoutes(fastify: FastifyInstance, deps: ExternalAuthDeps) {
  const auth = new ExternalAuthService(deps);
  let warnedAt = 0;

  /** Whether the caller is the broker; a refusal is logged at most once a minute. */
  const fromBroker = (request: FastifyRequest): boolean => {
    if (auth.fromBroker(request.headers)) return true;
    if (Date.now() - warnedAt > 60_000) {
      warnedAt = Date.now();
      request.log.warn(
        auth.configured
          ? 'MQTT auth hook called without the right MQTT_AUTH_SECRET: refused'
          : 'MQTT auth hook called but MQTT_AUTH_SECRET is unset: refused',
      );
    }
    return false;
  };

  /** Runs a check; a busy gate or a failing database refuses with 503 (the client retries). */
  const decide = async (
    request: FastifyRequest,
    reply: FastifyReply,
    answer: Answer,
    check: () => Promise<boolean>,
  ) => {
    reply.header('cache-control', 'no-store');
    try {
      return answer(reply, await check());
    } catch (error) {
      if (error instanceof AuthBusyError) request.log.debug({ err: error }, 'MQTT auth hook busy');
      else request.log.warn({ err: error }, 'MQTT auth hook failed');
      return answer(reply, false, 503);
    }
  };

  const connect = (answer: Answer) => async (request: FastifyRequest, reply: FastifyReply) => {
    const body = connectBody.safeParse(request.body);
    if (!fromBroker(request) || !body.success) return answer(reply, false);
    const { clientid, username, password } = body.data;
    return decide(request, reply, answer, () => auth.authenticate(clientid, username, password));
  };

  fastify.post('/api/iot/mqtt/auth', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'EMQX 5 HTTP authentication: {clientid, username, password} -> {result}',
    },
    handler: connect(emqxAuthn),
  });

  fastify.post('/api/iot/mqtt/user', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'mosquitto-go-auth user check: {username, password, clientid} -> 200 or 403',
    },
    handler: connect(goAuth),
  });

  fastify.post('/api/iot/mqtt/superuser', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: "mosquitto-go-auth superuser check: only the server's own identity",
    },
    handler: async (request, reply) => {
      const body = superuserBody.safeParse(request.body);
      reply.header('cache-control', 'no-store');
      return goAuth(
        reply,
        fromBroker(request) && body.success && auth.isSuperuser(body.data.username),
      );
    },
  });

  fastify.post('/api/iot/mqtt/acl', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary:
        'Topic ACL: EMQX 5 {clientid, username, topic, action} -> {result}; ' +
        'mosquitto-go-auth {username, clientid, topic, acc} -> 200 or 403',
    },
    handler: async (request, reply) => {
      const goAuthBody = goAuthAclBody.safeParse(request.body);
      if (goAuthBody.success) {
        if (!fromBroker(request)) return goAuth(reply, false);
        const { clientid, username, topic, acc } = goAuthBody.data;
        return decide(request, reply, goAuth, () =>
          auth.authorize(clientid, username, topic, GO_AUTH_ACCESS[acc]!),
        );
      }
      const emqxBody = emqxAclBody.safeParse(request.body);
      // Neither shape: a status that refuses for both (EMQX then falls to its no_match: deny).
      if (!emqxBody.success) return goAuth(reply, false);
      if (!fromBroker(request)) return emqxAuthz(reply, false);
      const { clientid, username, topic, action } = emqxBody.data;
      return decide(request, reply, emqxAuthz, () =>
        auth.authorize(clientid, username, topic, action),
      );
    },
  });
}
