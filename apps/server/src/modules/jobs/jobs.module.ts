import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { Notifier } from '../notify/notifier';
import { NodeRegistry, ALIVE_MS } from './job-nodes';
import { JobRunner } from './job-runner';
import { sweepLostNodeTasks } from './job-subtasks';
import { jobRoutes } from './job.routes';
import { JOB_PROCESSORS } from './processors';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's job runner (docs/jobs.md): the workflow engine and tests reach it here. */
    jobs: JobRunner;
  }
}

const VERSION = process.env.npm_package_version ?? '0.1.0';

/**
 * The job scheduler on this node (issue 22, docs/jobs.md): the job kinds on the scheduler core,
 * this node in the nodes' registry, and the job calls. Registered after the scheduler: it
 * starts when the app is ready and stops before the scheduler waits for its runs.
 */
export async function registerJobs(
  app: FastifyInstance,
  deps: { db: Database; config: Config; notifier: Notifier },
): Promise<JobRunner> {
  let runner: JobRunner | undefined = undefined;
  const registry = new NodeRegistry({
    db: deps.db,
    node: app.scheduler.node,
    address: () => {
      const address = app.server.address();
      return typeof address === 'object' && address
        ? `${address.address}:${address.port}`
        : (deps.config.publicUrl ?? '');
    },
    version: VERSION,
    dataDir: deps.config.dataDir,
    running: () => runner?.running ?? 0,
    log: app.log,
    afterBeat: () => sweepLostNodeTasks(runner!, ALIVE_MS),
    ...(deps.config.mqttUrl && {
      mqtt: { nodeId: deps.config.mqttNodeId, consumers: deps.config.mqttConsumers },
    }),
  });
  runner = new JobRunner({
    db: deps.db,
    scheduler: app.scheduler,
    registry,
    processors: JOB_PROCESSORS,
    config: deps.config,
    log: app.log,
    notifier: deps.notifier,
    telemetrySweeper: () => (app.hasDecorator('telemetry') ? app.telemetry.sweeper : undefined),
  });
  runner.register();
  app.decorate('jobs', runner);
  app.addHook('onReady', async () => {
    await registry.start();
    await runner!.start();
  });
  // Added after the scheduler's: preClose hooks run in order, so the scheduler has stopped
  // claiming (and its runs have finished or been left to their leases) before this node leaves.
  app.addHook('preClose', async () => {
    await runner!.stop();
    await registry.stop();
  });
  await app.register(jobRoutes, { db: deps.db, runner });
  return runner;
}
