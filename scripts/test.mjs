// `npm test` without arguments: the browser tests (e2e: one Chromium and one server at a time)
// run in a vitest of their own beside the vitest of every other project, then one report merges
// both (the config's reporters: test-results/vitest.json under CI). In a single vitest the e2e
// files, which run one at a time, could only start after all the others had finished: the two
// halves took 19 and 27 minutes one after the other. With arguments it is plain `vitest run`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const blobs = path.join(root, 'test-results', 'blob');
const children = new Set();

/** Runs vitest with these arguments, each output line tagged when `tag` is given; its exit code. */
function run(args, tag, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: tag ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    children.add(child);
    if (tag) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ])
        readline
          .createInterface({ input: from, crlfDelay: Infinity })
          .on('line', (line) => to.write(`${tag} ${line}\n`));
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });

const extra = process.argv.slice(2);
if (extra.length > 0) process.exit(await run(['run', ...extra]));

fs.rmSync(blobs, { recursive: true, force: true });
const lane = (name, project, ...options) => [
  'run',
  `--project=${project}`,
  ...options,
  '--reporter=default',
  '--reporter=blob',
  `--outputFile.blob=${path.join(blobs, `${name}.json`)}`,
];
const started = Date.now();
/** The first failing exit code of several, else 0. */
const firstFailure = (codes) => codes.find((code) => code !== 0) ?? 0;
const took = {};
const timed = (tag, args, env) =>
  run(args, `[${tag}]`, env).finally(() => (took[tag] = Math.round((Date.now() - started) / 1000)));
// Cores − 1 workers (vitest's default) in the units lane: the browser lane takes the other core.
// As many workers as cores was faster, but the sign-in timing tests (median latencies, a 1 s
// back-off) then failed on a loaded 2-core machine. The benchmarks' smoke runs are left out of
// the units lane (bench/vitest.config.ts) and run on the cores the other lanes free.
const units = timed(
  'units and HTTP',
  lane('units-and-http', '!e2e', `--maxWorkers=${Math.max(1, os.availableParallelism() - 1)}`),
  { SHUILI_TEST_LANE: 'units' },
);
const browser = timed('browser', lane('browser', 'e2e'));

// The benchmarks' smoke files, one vitest each, taken from one queue by a runner that starts when
// the first lane ends and a second that starts when the other does. In the official CI of
// 2026-11-27 one vitest ran them all after the browser lane (2,588 s), and the units lane
// (2,953 s) ended half way through them: for the last 490 s of the run they ran alone, one file
// at a time. Longest first (their times in that run), so the two runners end close together; a
// file not named here goes after these.
const BENCH_LONGEST_FIRST = ['bench', 'monitor', 'load', 'web', 'overload', 'list', 'realtime'];
const benchRank = (file) => {
  const rank = BENCH_LONGEST_FIRST.indexOf(file.replace(/\.test\.ts$/, ''));
  return rank === -1 ? BENCH_LONGEST_FIRST.length : rank;
};
const benchQueue = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((file) => file.endsWith('.test.ts'))
  .sort((a, b) => benchRank(a) - benchRank(b));
async function benchRunner(number) {
  const codes = [];
  for (let file = benchQueue.shift(); file; file = benchQueue.shift())
    codes.push(
      await run(lane(`bench-${file}`, 'bench', `bench/${file}`), `[benchmarks ${number}]`),
    );
  return firstFailure(codes);
}
const bench = Promise.all([
  Promise.race([units, browser]).then(() => benchRunner(1)),
  Promise.all([units, browser]).then(() => benchRunner(2)),
]).then((codes) => {
  took.benchmarks = Math.round((Date.now() - started) / 1000);
  return firstFailure(codes);
});
const codes = await Promise.all([units, browser, bench]);
// Each lane's wall time: the longer one is the run's, and tells which lane to shorten next.
console.log(
  `\n== merged report of the lanes (${Object.entries(took)
    .map(([tag, s]) => `${tag} ${s} s`)
    .join(', ')})`,
);
const merged = await run(['run', `--merge-reports=${blobs}`]);
process.exit(firstFailure(codes) || merged);
