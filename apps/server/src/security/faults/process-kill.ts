/** Whether a process with this pid still runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits for a condition, checking every `everyMs`; fails after `timeoutMs` saying what it waited for. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** kill -9: the process gets no chance to finish anything; resolves once it is gone. */
export async function killHard(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await waitFor(`process ${pid} to die`, () => !isRunning(pid), 30_000, 20);
}
