import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { Scheduler, type SchedulerOptions } from './scheduler.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The scheduler core of this node: modules register their processors on it. */
    scheduler: Scheduler;
  }
}

/**
 * Creates this node's scheduler and decorates the app with it (app.scheduler). Modules register
 * processors while the app is built; polling starts when the app is ready and stops before the
 * device transport does (preClose, added first), so runs under way can still send commands.
 */
export function registerScheduler(
  app: FastifyInstance,
  deps: { db: Database } & Partial<Omit<SchedulerOptions, 'db' | 'log'>>,
): Scheduler {
  const scheduler = new Scheduler({ ...deps, log: app.log });
  app.decorate('scheduler', scheduler);
  app.addHook('onReady', () => scheduler.start());
  app.addHook('preClose', () => scheduler.stop());
  return scheduler;
}
