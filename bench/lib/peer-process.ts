import path from 'node:path';
import {
  EXIT_WITH_PARENT,
  onFreePorts,
  REPO_ROOT,
  spawnPinned,
} from '@shuili/test-support/server-process';

export interface RunningPeer {
  url: string;
  /** The peer's process id (for CPU accounting); the server's own, for the server. */
  pid?: number;
  headers: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts a peer script of bench/lib (node --import tsx <script> '<json args + port>') pinned to
 * the server's core, and waits until its /ready answers.
 */
export async function startPeerProcess(
  script: string,
  args: Record<string, unknown>,
  core = 1,
): Promise<RunningPeer> {
  return onFreePorts(1, ([port]) => startPeerProcessOn(port!, script, args, core));
}

async function startPeerProcessOn(
  port: number,
  script: string,
  args: Record<string, unknown>,
  core: number,
): Promise<RunningPeer> {
  const child = await spawnPinned(
    core,
    process.execPath,
    [
      ...EXIT_WITH_PARENT,
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'bench/lib', script),
      JSON.stringify({ ...args, port }),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  // Passed on as before, and kept so that a start that failed says why (a taken port is retried).
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk;
    process.stderr.write(chunk);
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the peer ${script} did not start:\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, pid: child.pid, headers: {}, stop };
}
