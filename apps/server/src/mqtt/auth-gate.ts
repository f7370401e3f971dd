/**
 * Limits of the credential checks that reach the database. A reconnect storm (a cell tower back,
 * a broker restarted under thousands of devices) must not take the pool from ingestion and the
 * API: checks queue behind a few slots, and what would wait too long is refused at once, so the
 * client sees "server unavailable" and retries later.
 */
export const AUTH_LIMITS = {
  /** Database checks of credentials at once per node (the pool serves ingestion and the API too). */
  concurrency: 8,
  /** Checks waiting for a slot; beyond this a connection is refused at once. */
  queue: 5000,
  /** A check that waited this long is refused: broker hooks time out after about 5 s. */
  maxWaitMs: 4000,
  /** A refused secret is refused again from memory for this long (a device retrying it). */
  deniedCacheMs: 10_000,
  /** Entries per cache before it is emptied: a flood of made-up identities cannot fill memory. */
  maxCacheEntries: 100_000,
} as const;

/** The gate is full: answer "server unavailable" (CONNACK 3, HTTP 503) rather than wait. */
export class AuthBusyError extends Error {
  constructor(reason: string) {
    super(`authentication busy: ${reason}`);
    this.name = 'AuthBusyError';
  }
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/** At most `concurrency` tasks at once; a bounded queue whose entries give up after `maxWaitMs`. */
export class AuthGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly limits: {
      concurrency: number;
      queue: number;
      maxWaitMs: number;
    } = AUTH_LIMITS,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency) this.running += 1;
    else await this.slot();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Waits for a slot that a finishing task hands over (the running count stays as it is). */
  private slot(): Promise<void> {
    if (this.waiting.length >= this.limits.queue)
      return Promise.reject(new AuthBusyError('too many checks waiting'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new AuthBusyError('waited too long'));
        }, this.limits.maxWaitMs),
      };
      waiter.timer.unref();
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.running -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.start();
  }
}
