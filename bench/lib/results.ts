import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@shuili/test-support/server-process';

/** The machine a result was measured on, written beside every result. */
export function machine() {
  return {
    cpus: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    // Other work on the machine skews a run: the 1-, 5- and 15-minute load averages at write time.
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}

/** Writes bench/results/<name>.json (or <name>.smoke.json for smoke runs, which are not kept). */
export async function writeResult(name: string, smoke: boolean, result: unknown): Promise<string> {
  const file = path.join(REPO_ROOT, 'bench/results', `${name}${smoke ? '.smoke' : ''}.json`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    `${JSON.stringify({ name, measuredAt: new Date().toISOString(), machine: machine(), ...(result as object) }, null, 2)}\n`,
  );
  return file;
}
