/**
 * Runs tasks one at a time per key inside this process (other keys run freely). Sign-ins to one
 * account take turns, so counting attempts before checking a password cuts off a burst of
 * guesses without locking out a burst of honest sign-ins to a shared account.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last task of a key removes it, so the map does not grow with every account ever seen.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
