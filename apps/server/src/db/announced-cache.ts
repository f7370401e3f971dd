import type { Database } from './database';

const RELISTEN_MS = 2_000;

/** What watchers hear when announcements may have been missed: anything may have changed. */
export const EVERYTHING = '*';

/**
 * State read from the database and remembered briefly, for as long as this node hears the
 * database announce its changes (LISTEN on `channel`: a trigger announces each change when it
 * commits, whatever code or node made it). An announcement makes the node forget the entries it
 * names at once; the TTL only bounds how long a missed one could go unnoticed. While not
 * listening (before start, after a lost connection until listening again) nothing is
 * remembered and every read goes to the database. Sessions and users' access share it.
 */
export class AnnouncedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Bumped by every announcement: a read that started before one is not remembered. */
  private generation = 0;
  private listener: { close(): Promise<void> } | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly watchers = new Set<(payload: string) => void>();

  constructor(
    private readonly db: Database,
    private readonly options: {
      channel: string;
      ttlMs: number;
      /** Entries remembered at most (the oldest leaves first). */
      capacity: number;
      /** Which entries an announcement ends (default: the one whose key is the payload). */
      forgets?: (payload: string, key: string, value: V) => boolean;
    },
  ) {}

  /** Whether changes are announced to this node now (else every read goes to the database). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Hears every announcement (after the cache forgot what it names), e.g. to end connections. */
  watch(watcher: (payload: string) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  async start(): Promise<void> {
    this.stopped = false;
    try {
      const listener = await this.db.listen(this.options.channel, {
        message: (payload) => this.announced(payload),
        lost: () => {
          this.listener = undefined;
          this.forgetAll();
          // Announcements may have been missed: watchers re-check everything they hold.
          for (const watcher of this.watchers) watcher(EVERYTHING);
          this.listenLater();
        },
      });
      if (this.stopped) await listener.close();
      else this.listener = listener;
    } catch {
      this.listenLater();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.forgetAll();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  /**
   * The remembered value, or `load`'s. `load` answers the value and how long it may be kept at
   * most (0: not kept, e.g. a state that is already over).
   */
  async get(key: string, load: () => Promise<{ value: V; keepMs: number }>): Promise<V> {
    const known = this.entries.get(key);
    if (known) {
      if (this.listener && known.until > Date.now()) return known.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const { value, keepMs } = await load();
    if (keepMs > 0 && this.listener && generation === this.generation) {
      if (this.entries.size >= this.options.capacity)
        this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, until: Date.now() + Math.min(this.options.ttlMs, keepMs) });
    }
    return value;
  }

  /** Forgets the entries an announcement names (the next read goes to the database). */
  announced(payload: string): void {
    this.generation += 1;
    const forgets = this.options.forgets;
    if (!forgets) this.entries.delete(payload);
    else
      for (const [key, entry] of this.entries)
        if (forgets(payload, key, entry.value)) this.entries.delete(key);
    for (const watcher of this.watchers) watcher(payload);
  }

  /** Forgets the entries a test picks, without an announcement (watchers are not told). */
  forgetWhere(test: (key: string, value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (test(key, entry.value)) this.entries.delete(key);
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private listenLater(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.start(), RELISTEN_MS);
    this.retry.unref();
  }
}

/**
 * Checks whose state lives in an AnnouncedCache (sessions, users' access): its lifecycle and its
 * watchers, the same for each.
 */
export abstract class AnnouncedChecks<V> {
  protected abstract readonly cache: AnnouncedCache<V>;

  /** Whether changes are announced to this node now (else every check reads the database). */
  get listening(): boolean {
    return this.cache.listening;
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Hears every announcement (or EVERYTHING), after the cache forgot what it names. */
  watch(watcher: (payload: string) => void): () => void {
    return this.cache.watch(watcher);
  }
}
