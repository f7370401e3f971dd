import pg from 'pg';

interface ListenHandlers {
  message(payload: string): void;
  lost(): void;
}

/**
 * The one connection a node LISTENs on, for every channel it follows (sessions, access, devices,
 * alarm rules, the scheduler, jobs...). A connection per listener made seven per node, which
 * with the pools left PostgreSQL's default 100 connections for about four nodes.
 *
 * When the connection breaks, every listener hears `lost` (notifications may have been missed)
 * and is closed; the next `listen` opens a new connection.
 */
export class SharedListenConnection {
  private connection: Promise<pg.Client> | undefined;
  /** Per channel, the listeners of the current connection and its LISTEN statement. */
  private readonly channels = new Map<
    string,
    { ready: Promise<unknown>; all: Set<ListenHandlers> }
  >();
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, handlers: ListenHandlers): Promise<{ close(): Promise<void> }> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    const client = await this.connect();
    let followed = this.channels.get(channel);
    if (!followed) {
      followed = { ready: this.statement(client, `LISTEN ${channel}`), all: new Set() };
      this.channels.set(channel, followed);
    }
    const listener = { ...handlers };
    followed.all.add(listener);
    try {
      await followed.ready;
    } catch (error) {
      followed.all.delete(listener);
      throw error;
    }
    return {
      close: async () => {
        const current = this.channels.get(channel);
        if (!current?.all.delete(listener) || current.all.size > 0) return;
        this.channels.delete(channel);
        await this.statement(client, `UNLISTEN ${channel}`).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    this.channels.clear();
    await connection?.then((client) => client.end()).catch(() => undefined);
  }

  private connect(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    if (this.connection) return this.connection;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    const connection = client.connect().then(
      () => {
        this.holdProcess(client, false);
        return client;
      },
      (error: unknown) => {
        if (this.connection === connection) this.connection = undefined;
        throw error;
      },
    );
    const lose = () => this.lose(connection, client);
    client.on('error', lose);
    client.on('end', lose);
    client.on('notification', (message) => {
      if (this.connection !== connection) return;
      for (const listener of this.channels.get(message.channel)?.all ?? [])
        listener.message(message.payload ?? '');
    });
    this.connection = connection;
    return connection;
  }

  /** Statements pending on the connection: while there are, it keeps the process alive. */
  private pending = 0;

  private async statement(client: pg.Client, text: string): Promise<void> {
    this.pending += 1;
    this.holdProcess(client, true);
    try {
      await client.query(text);
    } finally {
      this.pending -= 1;
      if (this.pending === 0) this.holdProcess(client, false);
    }
  }

  /**
   * An idle listening connection must not keep the process alive after everything else closed
   * (a forgotten listener); one waiting for its LISTEN must, or a process with nothing else to
   * do would end before it is listening.
   */
  private holdProcess(client: pg.Client, hold: boolean): void {
    const stream = (
      client as unknown as { connection?: { stream?: { ref?(): void; unref?(): void } } }
    ).connection?.stream;
    if (hold) stream?.ref?.();
    else if (this.pending === 0) stream?.unref?.();
  }

  /** The connection broke: every listener of it is told, and the next listen opens another. */
  private lose(connection: Promise<pg.Client>, client: pg.Client): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    const listeners = [...this.channels.values()].flatMap((followed) => [...followed.all]);
    this.channels.clear();
    client.end().catch(() => undefined);
    for (const listener of listeners) listener.lost();
  }
}
