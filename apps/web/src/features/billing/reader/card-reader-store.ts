import type { CardData } from '@shuili/card-reader/protocol';
import {
  CardReaderClient,
  CardReaderRequestError,
  type CardReaderSnapshot,
  type SocketLike,
} from './card-reader-client';

/** The card on the reader as the page knows it: read when placed, updated by every write. */
export interface CardReaderState extends CardReaderSnapshot {
  card: CardData | null;
  /** Why the card on the reader could not be read (a damaged or foreign card). */
  cardError: CardReaderRequestError | null;
  reading: boolean;
}

/**
 * One client per page and port, shared by every component that shows or uses the reader, with
 * the card read once each time one is placed (not once per component). Started by the first
 * subscriber, stopped when the last one leaves, so a page without a reader opens no connection.
 */
export class CardReaderStore {
  readonly client: CardReaderClient;
  private state: CardReaderState;
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;
  /** Counts reads, so the answer of an older one never overwrites a newer. */
  private readSerial = 0;

  constructor(url: string, connect?: (url: string) => SocketLike) {
    this.client = new CardReaderClient({ url, ...(connect ? { connect } : {}) });
    this.state = { ...this.client.snapshot(), card: null, cardError: null, reading: false };
  }

  getState = (): CardReaderState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.begin();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.end();
    };
  };

  private set(next: Partial<CardReaderState>): void {
    this.state = { ...this.state, ...next };
    for (const listener of [...this.listeners]) listener();
  }

  private begin(): void {
    this.unsubscribe = this.client.subscribe((snapshot, event) => {
      const cardUid = snapshot.status?.cardUid ?? null;
      const stale = this.state.card && this.state.card.uid !== cardUid;
      this.set({
        ...snapshot,
        ...(stale || !cardUid ? { card: null, cardError: null } : {}),
      });
      if ((event?.event === 'hello' || event?.event === 'card-placed') && cardUid)
        void this.refresh();
    });
    this.client.start();
  }

  private end(): void {
    this.unsubscribe?.();
    this.client.stop();
  }

  /** Reads the card on the reader again (after a placement, or when the cashier asks). */
  async refresh(): Promise<CardData | null> {
    const serial = ++this.readSerial;
    this.set({ reading: true });
    try {
      const card = await this.client.readCard();
      if (serial === this.readSerial) this.set({ card, cardError: null, reading: false });
      return card;
    } catch (error) {
      if (serial === this.readSerial)
        this.set({
          card: null,
          cardError: error instanceof CardReaderRequestError ? error : null,
          reading: false,
        });
      if (error instanceof CardReaderRequestError && error.code === 'NO_CARD') return null;
      throw error;
    }
  }

  /** What a write, issue or erase answered is what the card holds now. */
  remember(card: CardData): void {
    this.readSerial++;
    this.set({ card, cardError: null, reading: false });
  }
}
