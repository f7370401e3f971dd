/**
 * A scheduler node in a process of its own, for the test of a node that dies mid-run
 * (scheduler.nodes.test.ts): it claims `test.hang` triggers with a short lease, says which run it
 * holds on stdout, and never finishes it. The test kills it with SIGKILL.
 */
import { pino } from 'pino';
import { openPostgresDatabase } from '../../db/postgres-database';
import { Scheduler } from './scheduler.service';

const url = process.env.FIXTURE_DATABASE_URL;
if (!url) throw new Error('FIXTURE_DATABASE_URL is not set');
const db = await openPostgresDatabase(url, 2);
const scheduler = new Scheduler({
  db,
  log: pino({ level: 'warn' }),
  node: 'doomed-node',
  leaseMs: Number(process.env.FIXTURE_LEASE_MS ?? 1500),
});
scheduler.registerProcessor('test.hang', async (run) => {
  process.stdout.write(`claimed ${run.runId} attempt ${run.attempt}\n`);
  await new Promise(() => undefined);
});
await scheduler.start();
process.stdout.write('ready\n');
