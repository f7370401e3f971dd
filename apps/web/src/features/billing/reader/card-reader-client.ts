import type {
  CardData,
  CardReaderErrorCode,
  CardReaderEvent,
  CardReaderRequest,
  CardReaderRequestType,
  CardReaderResponse,
  CardReaderResults,
  CardType,
  ReaderStatus,
  WriteResult,
} from '@shuili/card-reader/protocol';

/**
 * The console's side of the desk's card-reading service (packages/card-reader, README.md
 * "Protocol"): one WebSocket to ws://127.0.0.1:<port>, reconnected with backoff for as long as the
 * client runs (the service may be started after the page), requests matched to answers by id and
 * given up after a timeout.
 */

/** Why a request failed: the service's codes, and the client's own when no answer came. */
export type CardReaderFailureCode =
  CardReaderErrorCode | 'NOT_CONNECTED' | 'TIMEOUT' | 'DISCONNECTED';

export class CardReaderRequestError extends Error {
  constructor(
    readonly code: CardReaderFailureCode,
    message: string,
    /** STALE_SEQUENCE and the like: what the card holds now. */
    readonly card?: CardData,
    /** CORRUPT_CARD: the block that failed its check. */
    readonly block?: number,
  ) {
    super(message);
  }
}

/**
 * The answers after which sending the same write again may succeed: no answer, the card lifted
 * for a moment, a read-back that did not match. The service answers a write the card already
 * holds with alreadyWritten, so a write that did happen is never made twice.
 */
const RETRYABLE: ReadonlySet<CardReaderFailureCode> = new Set([
  'NOT_CONNECTED',
  'TIMEOUT',
  'DISCONNECTED',
  'NO_CARD',
  'VERIFY_FAILED',
  'READER_ERROR',
]);

export function isRetryable(error: unknown): boolean {
  return error instanceof CardReaderRequestError && RETRYABLE.has(error.code);
}

/** 'closed': no service answers on the port (the console says how to start it). */
export type ReaderConnection = 'connecting' | 'open' | 'closed';

export interface CardReaderSnapshot {
  connection: ReaderConnection;
  /** The service's last word on reader and card (null until it said hello). */
  status: ReaderStatus | null;
  /** Connection attempts that failed in a row (0 once connected). */
  failures: number;
}

/** What the client needs of a WebSocket: the browser's, or `ws` in tests. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface CardReaderClientOptions {
  url: string;
  /** Makes the socket (tests hand in `ws` with the console's Origin). */
  connect?: (url: string) => SocketLike;
  requestTimeoutMs?: number;
  /** Reconnection delays: from the first, doubling, up to the last. */
  backoffMs?: { first: number; max: number };
}

export interface WriteCardInput {
  uid: string;
  /** The sequence the card held when it was read before the change the server committed. */
  expectedSequence: number;
  /** The whole balance the server's answer says the card must now hold. */
  balanceFen: number;
}

export interface IssueCardInput {
  uid: string;
  tenantCode: string;
  cardNo: string;
  cardType: CardType;
  balanceFen?: number;
}

export interface RetryOptions {
  /** Tries in all (default 3). */
  attempts?: number;
  /** Wait between tries (default 1 s: time to put a lifted card back). */
  delayMs?: number;
}

type Listener = (snapshot: CardReaderSnapshot, event?: CardReaderEvent) => void;

const OPEN = 1;

export class CardReaderClient {
  private socket: SocketLike | undefined;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private snap: CardReaderSnapshot = { connection: 'closed', status: null, failures: 0 };
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Map<
    string,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: unknown }
  >();
  private counter = 0;
  private readonly prefix = Math.random().toString(36).slice(2, 8);
  private readonly timeoutMs: number;
  private readonly backoff: { first: number; max: number };

  constructor(private readonly options: CardReaderClientOptions) {
    this.timeoutMs = options.requestTimeoutMs ?? 8000;
    this.backoff = options.backoffMs ?? { first: 500, max: 10_000 };
  }

  /** Connects, and keeps reconnecting until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
    this.failAll('DISCONNECTED', 'the client stopped');
    this.update({ connection: 'closed', status: null, failures: 0 });
  }

  snapshot(): CardReaderSnapshot {
    return this.snap;
  }

  /** Called with every change of the snapshot, and with each event the service pushes. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once connected (rejects with NOT_CONNECTED after timeoutMs). */
  waitOpen(timeoutMs = this.timeoutMs): Promise<void> {
    if (this.snap.connection === 'open') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(
          new CardReaderRequestError('NOT_CONNECTED', 'the card-reading service is not running'),
        );
      }, timeoutMs);
      const stop = this.subscribe((snapshot) => {
        if (snapshot.connection !== 'open') return;
        clearTimeout(timer);
        stop();
        resolve();
      });
    });
  }

  private update(next: Partial<CardReaderSnapshot>, event?: CardReaderEvent): void {
    this.snap = { ...this.snap, ...next };
    for (const listener of [...this.listeners]) listener(this.snap, event);
  }

  private open(): void {
    if (!this.running) return;
    // While retrying a service that is not there, it stays 'closed' (no flicker on screen).
    if (this.snap.failures === 0) this.update({ connection: 'connecting' });
    let socket: SocketLike;
    try {
      socket = (this.options.connect ?? ((url) => new WebSocket(url) as SocketLike))(
        this.options.url,
      );
    } catch {
      this.closed();
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
    };
    socket.onmessage = (message) => {
      if (this.socket === socket && typeof message.data === 'string') this.receive(message.data);
    };
    // A failed connection closes too; onclose alone decides what happens next.
    socket.onerror = () => {};
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.failAll('DISCONNECTED', 'the card-reading service closed the connection');
      if (!opened) this.closed();
      else {
        this.update({ connection: 'closed', status: null, failures: 0 });
        this.retry(this.backoff.first);
      }
    };
  }

  private closed(): void {
    const failures = this.snap.failures + 1;
    this.update({ connection: 'closed', status: null, failures });
    this.retry(Math.min(this.backoff.first * 2 ** (failures - 1), this.backoff.max));
  }

  private retry(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.running) this.timer = setTimeout(() => this.open(), delayMs);
  }

  private receive(text: string): void {
    let message: CardReaderEvent | CardReaderResponse;
    try {
      message = JSON.parse(text) as CardReaderEvent | CardReaderResponse;
    } catch {
      return;
    }
    if ('event' in message) {
      // The hello is the sign that the service (not just anything on the port) answered.
      if (message.event === 'hello')
        this.update({ connection: 'open', status: message.status, failures: 0 }, message);
      else this.update({ status: message.status }, message);
      return;
    }
    const waiting = message.id === null ? undefined : this.pending.get(String(message.id));
    if (!waiting) return;
    this.pending.delete(String(message.id));
    clearTimeout(waiting.timer as ReturnType<typeof setTimeout>);
    if (message.ok) waiting.resolve(message.result);
    else {
      const { code, message: text, card, block } = message.error;
      waiting.reject(new CardReaderRequestError(code, text, card, block));
    }
  }

  private failAll(code: CardReaderFailureCode, message: string): void {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer as ReturnType<typeof setTimeout>);
      waiting.reject(new CardReaderRequestError(code, message));
      this.pending.delete(id);
    }
  }

  /** Sends one request; its answer, or a CardReaderRequestError. */
  request<T extends CardReaderRequestType>(
    type: T,
    params: Omit<Extract<CardReaderRequest, { type: T }>, 'id' | 'type'>,
  ): Promise<CardReaderResults[T]> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.snap.connection !== 'open')
      return Promise.reject(
        new CardReaderRequestError('NOT_CONNECTED', 'the card-reading service is not running'),
      );
    const id = `${this.prefix}-${++this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new CardReaderRequestError('TIMEOUT', `no answer to ${type} in ${this.timeoutMs} ms`),
        );
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      socket.send(JSON.stringify({ ...params, id, type }));
    });
  }

  status(): Promise<ReaderStatus> {
    return this.request('status', {});
  }

  /** The card on the reader: UID, type, tenant, card number, balance in fen, sequence. */
  readCard(): Promise<CardData> {
    return this.request('read', {});
  }

  /**
   * Writes the balance the server committed onto the card (write after commit), by
   * compare-and-write on expectedSequence. A failure that may pass (no answer, the card lifted,
   * a read-back mismatch) is tried again with the same request, which the service answers as
   * done if the earlier try did write; anything else (STALE_SEQUENCE: a controller wrote the card
   * since it was read; WRONG_CARD; CORRUPT_CARD) is thrown at once. After the last failed try the
   * error is thrown too: the caller then reports the write as failed to the server and decides,
   * with the cashier, to try again later or to reverse the change. Never call this before the
   * server has committed: the card must never hold money the ledger does not.
   */
  async writeCard(input: WriteCardInput, retry: RetryOptions = {}): Promise<WriteResult> {
    const attempts = Math.max(1, retry.attempts ?? 3);
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.snap.connection !== 'open') await this.waitOpen();
        return await this.request('write', input);
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, retry.delayMs ?? 1000));
      }
    }
  }

  /** Writes identity and purse onto a blank card (registration, a replacement card). */
  issueCard(input: IssueCardInput): Promise<CardData> {
    return this.request('issue', { balanceFen: 0, ...input });
  }

  /** Blanks a card (cancelled, reclaimed), only if it still holds expectedSequence. */
  eraseCard(input: { uid: string; expectedSequence: number }): Promise<CardData> {
    return this.request('erase', input);
  }
}
