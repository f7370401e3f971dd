import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/database';
import type { TransportState } from '../mqtt/device-transport';
import { envelopeOf, ok } from './envelope';

/** How often the database is pinged when nobody asks, so "since" is close to the real change. */
const WATCH_MS = 5_000;

const healthSchema = z.object({
  /** `up`, or `degraded` while the database cannot be reached (answered with 503). */
  status: z.string(),
  database: z.enum(['up', 'down']),
  databaseKind: z.enum(['pglite', 'postgres']),
  /** When the database was first seen in its current state (ISO 8601). */
  databaseSince: z.string(),
  /** Times the database was seen going down since the process started (each one recovered from, when up). */
  databaseOutages: z.number(),
  /**
   * `listening`: ended sessions are announced to this node (LISTEN), so live sessions are
   * remembered for a few seconds; `polling`: not listening now, every request reads its session.
   */
  sessionNotifications: z.enum(['listening', 'polling']),
  broker: z.object({
    kind: z.enum(['embedded', 'external']),
    /** `up`; external: `partial` while some of this node's consumers are reconnecting, `down` when none is connected. */
    state: z.enum(['up', 'partial', 'down']),
    consumers: z.number().optional(),
    consumersConnected: z.number().optional(),
    /** External: uplinks this node stored (and acknowledged to the broker) since it started. */
    uplinksStored: z.number().optional(),
    /** External: sessions of lost nodes this node consumes until they return. */
    adoptedSessions: z.number().optional(),
  }),
  uptimeSeconds: z.number(),
});

/** The database's state as this process last saw it, and how often it went away. */
class DatabaseWatch {
  private up: boolean | undefined;
  private since = new Date();
  private outages = 0;
  private checking: Promise<boolean> | undefined;

  constructor(private readonly db: Database) {}

  /** Pings now (one ping at a time, shared by concurrent callers). */
  check(): Promise<boolean> {
    this.checking ??= this.db
      .ping()
      .catch(() => false)
      .then((up) => {
        if (up !== this.up) {
          if (this.up === true && !up) this.outages += 1;
          this.up = up;
          this.since = new Date();
        }
        return up;
      })
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  get state() {
    return { since: this.since.toISOString(), outages: this.outages };
  }
}

/**
 * GET /api/health: liveness and what the process knows about its dependencies. Answers 503 while
 * the database cannot be reached, so a load balancer takes the node out; the server keeps
 * running and recovers by itself when the database is back (the pool reconnects, the session
 * listener listens again), which this answer then says. Technical fields only, untranslated.
 */
export async function healthRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    sessions: { readonly listening: boolean };
    /** The device transport, created after this route (undefined until then). */
    transport: () => { state(): TransportState } | undefined;
  },
) {
  const watch = new DatabaseWatch(deps.db);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await watch.check();
    timer = setInterval(() => void watch.check(), WATCH_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { permission: 'public' },
    schema: {
      tags: ['system'],
      summary: 'Liveness, database reachability, session notifications and broker state',
      response: { 200: envelopeOf(healthSchema), 503: envelopeOf(healthSchema) },
    },
    handler: async (_request, reply) => {
      const up = await watch.check();
      reply.code(up ? 200 : 503);
      return ok({
        status: up ? 'up' : 'degraded',
        database: up ? ('up' as const) : ('down' as const),
        databaseKind: deps.db.kind,
        databaseSince: watch.state.since,
        databaseOutages: watch.state.outages,
        sessionNotifications: deps.sessions.listening
          ? ('listening' as const)
          : ('polling' as const),
        broker: deps.transport()?.state() ?? { kind: 'embedded' as const, state: 'down' as const },
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
      });
    },
  });
}
