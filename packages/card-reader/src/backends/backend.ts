import type { ReaderBackendName, ReaderStatus } from '../protocol';

/**
 * A card reader as the service sees it: raw 16-byte blocks of the card with a given UID. Every
 * call names the UID it means, and the backend refuses (NO_CARD, WRONG_CARD) when another card, or
 * none, lies on the reader: a card swapped between the read and the write is never written.
 */
export interface ReaderBackend {
  readonly name: ReaderBackendName;
  /** Starts watching the reader; onChange is called whenever status() may have changed. */
  start(onChange: () => void): Promise<void>;
  status(): ReaderStatus;
  readBlock(uid: string, block: number): Promise<Uint8Array>;
  writeBlock(uid: string, block: number, data: Uint8Array): Promise<void>;
  /** Only the simulated reader has hands: it places and removes cards on request. */
  readonly simulate?: {
    place(uid: string): Promise<void>;
    remove(): Promise<void>;
  };
  close(): Promise<void>;
}
