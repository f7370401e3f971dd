// `npm run cluster`: the multi-node rig for a user to see (docs/scaling.md "The rig"): three
// nodes behind nginx with the console and the demo's device simulation, until Ctrl-C.
import { rigUnavailable, startRig } from './rig';

const missing = await rigUnavailable();
if (missing) {
  console.error(`The rig cannot run here: ${missing}.`);
  process.exit(1);
}

console.log(
  'Starting three Shuili nodes behind nginx (the first seeds the demo; a minute or two)…',
);
const rig = await startRig({
  web: true,
  simulation: true,
  // A few days of the demo's simulated past, so its charts and reports show something.
  env: { DEMO_HISTORY_DAYS: '3' },
  log: (line) => console.log(`  ${line}`),
});

console.log(
  `\n  Shuili cluster: ${rig.url} (nginx)\n` +
    rig.nodes.map((node) => `  ${node.name}: ${node.url} (pid ${node.pid})\n`).join('') +
    `  Demo sign-in: tenant "demo", admin / admin123 (ROLE_ADMIN) or operator / operator123\n` +
    `  Try: kill -9 a node's pid and keep using ${rig.url}. Ctrl-C stops everything.\n`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the nodes, nginx and the broker, and dropping the database…');
  await rig.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
