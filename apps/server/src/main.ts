import { loadConfig } from './config';
import { buildApp } from './app';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-database';
import { seed } from './db/seed';
import { startDemoSimulation } from './modules/iot/demo-simulation';

/** Process entry: configuration, database, migrations, seed, HTTP; graceful stop on signals. */
async function main() {
  const config = loadConfig();
  const started = Date.now();
  const db = await openDatabase(config);
  const applied = await migrate(db);
  const seeded = await seed(db, config);
  const app = await buildApp({ config, db });

  let stopSimulation: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: no new connections; finishing requests in flight`);
    const force = setTimeout(() => {
      app.log.error('requests still running after 25 s: exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await stopSimulation?.();
      await app.close();
      await db.close();
      app.log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (config.simulate && config.seedDemo) {
    // The demo keeps running without it: a simulation that cannot start is reported, not fatal.
    stopSimulation = await startDemoSimulation(app, db, listeningPort(app)).catch(
      (error: unknown) => {
        app.log.warn({ err: error }, 'the light simulation did not start');
        return undefined;
      },
    );
  }
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  app.log.info(
    `Shuili is ready in ${Date.now() - started} ms on http://localhost:${config.port} with ${where}` +
      (applied.length ? `; applied ${applied.join(', ')}` : '') +
      (seeded.length ? `; seeded ${seeded.join(', ')}` : ''),
  );
  if (config.seedDemo) {
    console.log(
      `\n  Shuili console: http://localhost:${config.port}\n` +
        `  Demo sign-in (demo data only, change for real use): tenant "demo", admin / ${config.demoPasswords.admin}` +
        ` (ROLE_ADMIN), operator / ${config.demoPasswords.operator} (ROLE_OPERATOR) or cashier / ${config.demoPasswords.cashier} (ROLE_CASHIER); tenant "acme", admin / ${config.demoPasswords.acmeAdmin}\n` +
        `  API docs: http://localhost:${config.port}/api/docs\n`,
    );
  }
}

/** The HTTP port actually bound (PORT=0 picks a free one). */
function listeningPort(app: Awaited<ReturnType<typeof buildApp>>): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

main().catch((error: unknown) => {
  console.error('Shuili could not start:', error);
  process.exit(1);
});
