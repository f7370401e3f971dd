import fs from 'node:fs/promises';

/**
 * Seconds a process's main thread has spent runnable but waiting for a core (Linux schedstat).
 * Beside its CPU time it says whether a slow server was idle or starved by other work on the
 * machine; 0 where /proc is missing.
 */
export async function runQueueWaitSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => '');
  const waitedNs = Number(stat.split(' ')[1]);
  return Number.isFinite(waitedNs) ? waitedNs / 1e9 : 0;
}
