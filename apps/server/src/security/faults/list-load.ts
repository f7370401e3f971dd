/**
 * Signed-in list calls in a loop, as a few browsers on a list screen would make them: counts
 * answers by status, so a fault test can see requests fail while a dependency is down and
 * succeed again after it is back.
 */
export class ListLoad {
  ok = 0;
  failed = 0;
  readonly statuses = new Map<number, number>();
  private running = true;
  private readonly workers: Promise<void>[] = [];

  constructor(url: string, token: string, paths: string[], workers = 3) {
    for (let i = 0; i < workers; i += 1) this.workers.push(this.work(url, token, paths, i));
  }

  private async work(url: string, token: string, paths: string[], offset: number) {
    for (let n = offset; this.running; n += 1) {
      const path = paths[n % paths.length]!;
      const status = await fetch(`${url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0, // no answer at all (connection refused or reset)
      );
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      if (status === 200) this.ok += 1;
      else this.failed += 1;
      // A browser pauses between calls; failures must not spin.
      await new Promise((resolve) => setTimeout(resolve, status === 200 ? 20 : 100));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }
}
