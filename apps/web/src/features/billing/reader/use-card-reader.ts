import type { CardData, WriteResult } from '@shuili/card-reader/protocol';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useConsoleSettings } from '../../../lib/console-settings';
import {
  CardReaderRequestError,
  type IssueCardInput,
  type RetryOptions,
  type WriteCardInput,
} from './card-reader-client';
import { CardReaderStore, type CardReaderState } from './card-reader-store';

/** The service on the cashier's own machine: the loopback address the service listens on. */
export function cardReaderUrl(port: number): string {
  return `ws://127.0.0.1:${port}`;
}

const stores = new Map<number, CardReaderStore>();

function storeFor(port: number): CardReaderStore {
  let store = stores.get(port);
  if (!store) stores.set(port, (store = new CardReaderStore(cardReaderUrl(port))));
  return store;
}

/** 'off': the installation has no desk readers (CARD_READER_PORT=0). */
export type CardReaderView = Omit<CardReaderState, 'connection'> & {
  connection: CardReaderState['connection'] | 'off';
};

const OFF: CardReaderView = {
  connection: 'off',
  status: null,
  failures: 0,
  card: null,
  cardError: null,
  reading: false,
};
/** While the console's settings (the port) load. */
const LOADING: CardReaderView = { ...OFF, connection: 'connecting' };
const noStore = () => () => {};

/** A refusal that says what the card holds (STALE_SEQUENCE) shows that card from then on. */
function rememberCard(store: CardReaderStore) {
  return (error: unknown): never => {
    if (error instanceof CardReaderRequestError && error.card) store.remember(error.card);
    throw error;
  };
}
const offState = () => OFF;
const loadingState = () => LOADING;

export interface CardReaderHandle extends CardReaderView {
  /** Reads the card on the reader afresh (also done by itself whenever a card is placed). */
  readCard(): Promise<CardData | null>;
  /** Write after commit: see CardReaderClient.writeCard for what is retried and what is thrown. */
  writeCard(input: WriteCardInput, retry?: RetryOptions): Promise<WriteResult>;
  issueCard(input: IssueCardInput): Promise<CardData>;
  eraseCard(input: { uid: string; expectedSequence: number }): Promise<CardData>;
}

/**
 * The desk's card reader for a screen: connection, reader and card as they change, and the
 * operations the cashier pages need. Every component on a page shares one connection.
 */
export function useCardReader(): CardReaderHandle {
  const settings = useConsoleSettings();
  const port = settings.data?.cardReaderPort;
  const store = port ? storeFor(port) : undefined;
  const view = useSyncExternalStore<CardReaderView>(
    store?.subscribe ?? noStore,
    store?.getState ?? (port === undefined ? loadingState : offState),
  );
  const noReader = useCallback(() => {
    throw new Error('no card reader: the console settings name no port (CARD_READER_PORT)');
  }, []);
  return useMemo(
    () => ({
      ...view,
      readCard: () => (store ? store.refresh() : noReader()),
      writeCard: async (input: WriteCardInput, retry?: RetryOptions) => {
        if (!store) return noReader();
        const written = await store.client.writeCard(input, retry).catch(rememberCard(store));
        store.remember(written);
        return written;
      },
      issueCard: async (input: IssueCardInput) => {
        if (!store) return noReader();
        const card = await store.client.issueCard(input);
        store.remember(card);
        return card;
      },
      eraseCard: async (input: { uid: string; expectedSequence: number }) => {
        if (!store) return noReader();
        const card = await store.client.eraseCard(input).catch(rememberCard(store));
        store.remember(card);
        return card;
      },
    }),
    [view, store, noReader],
  );
}
