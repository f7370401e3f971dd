import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_WITH_PARENT } from './server-process';

/** Whether a process runs (an exited one not yet reaped by its new parent counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers.filter(running)) process.kill(pid, 'SIGKILL');
});

/**
 * A starter process (a test fork's stand-in) that spawns `script` with `flags` and prints the
 * grandchild's pid; answers both pids once the grandchild runs.
 */
async function startPair(flags: string[], script: string) {
  const starter = spawn(
    process.execPath,
    [
      '-e',
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, ${JSON.stringify([...flags, '-e', script])},
                           { stdio: ['ignore', 'pipe', 'inherit'] });
       child.stdout.once('data', () => console.log(child.pid));
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const grandchild = await new Promise<number>((resolve, reject) => {
    starter.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    starter.once('exit', () => reject(new Error('the starter exited early')));
  });
  leftovers.push(starter.pid!, grandchild);
  return { starter: starter.pid!, grandchild };
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!running(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return !running(pid);
}

const READY = "console.log('up');";
const IDLE = 'setInterval(() => {}, 1000);';

describe.skipIf(process.platform !== 'linux')(
  'a spawned process stops when its starter dies',
  () => {
    it('stops on SIGTERM, is made to exit when it ignores it, and lives on without the flags', async () => {
      const [plain, deaf, unwatched] = await Promise.all([
        startPair(EXIT_WITH_PARENT, READY + IDLE),
        startPair(EXIT_WITH_PARENT, `process.on('SIGTERM', () => {});${READY}${IDLE}`),
        startPair([], READY + IDLE),
      ]);
      for (const pair of [plain, deaf, unwatched]) process.kill(pair.starter, 'SIGKILL');
      const [plainGone, deafGone, unwatchedGone] = await Promise.all([
        goneWithin(plain.grandchild, 5_000),
        goneWithin(deaf.grandchild, 15_000),
        goneWithin(unwatched.grandchild, 3_000),
      ]);
      expect(plainGone).toBe(true);
      expect(deafGone).toBe(true);
      // The control: without the flags the orphan lives on (what left servers running in CI).
      expect(unwatchedGone).toBe(false);
    }, 30_000);
  },
);
