import fs from 'node:fs';
import path from 'node:path';
import { BLOCK_COUNT, BLOCK_SIZE, blankCardImage, isTrailer } from '../card-layout';
import { CardReaderFailure } from '../errors';
import type { ReaderStatus } from '../protocol';
import type { ReaderBackend } from './backend';
import { readerSerial } from './reader-serial';

/** The file naming the card on the reader: its UID, or nothing (or no file) for none. */
export const PRESENT_FILE = 'present';

/** A simulated card's file: `<cards>/<UID>.json`, every block as 32 hex digits. */
export interface CardFile {
  uid: string;
  blocks: string[];
}

const POLL_MS = 150;

function toHex(block: Uint8Array): string {
  return Buffer.from(block).toString('hex').toUpperCase();
}

/**
 * A reader whose cards are JSON files in a folder, for tests, the try-out and development: a card
 * lies on the reader while the file `present` names its UID (written by hand, by --present, or by
 * the simulate.place request). A UID with no file yet gets a blank card. Every operation reads the
 * files afresh, so a card edited by hand (or corrupted on purpose) is seen as it is.
 */
export class SimulatedReader implements ReaderBackend {
  readonly name = 'simulated' as const;
  private timer: NodeJS.Timeout | undefined;
  private lastSeen: string | null = null;
  private onChange: () => void = () => {};

  constructor(private readonly folder: string) {}

  async start(onChange: () => void): Promise<void> {
    await fs.promises.mkdir(this.folder, { recursive: true });
    this.onChange = onChange;
    this.lastSeen = this.presentUid();
    // Polling rather than fs.watch: watch events are unreliable across platforms and editors
    // (rename-on-save), and a seventh of a second is quick enough for a hand placing a card.
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  private poll(): void {
    const now = this.presentUid();
    if (now !== this.lastSeen) {
      this.lastSeen = now;
      this.onChange();
    }
  }

  /** The UID the present file names, creating a blank card for a UID without a file. */
  private presentUid(): string | null {
    let uid: string;
    try {
      uid = fs.readFileSync(path.join(this.folder, PRESENT_FILE), 'utf8').trim().toUpperCase();
    } catch {
      return null;
    }
    if (!/^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/.test(uid)) return null;
    if (!fs.existsSync(this.cardPath(uid))) this.saveCard(uid, blankCardImage(uid));
    return uid;
  }

  private cardPath(uid: string): string {
    return path.join(this.folder, `${uid}.json`);
  }

  private loadCard(uid: string): Uint8Array[] {
    const file = JSON.parse(fs.readFileSync(this.cardPath(uid), 'utf8')) as CardFile;
    return Array.from({ length: BLOCK_COUNT }, (_, index) => {
      const hex = file.blocks?.[index] ?? '';
      const block = new Uint8Array(BLOCK_SIZE);
      // A block that is not 32 hex digits reads as it would from a damaged card: what is there.
      block.set(Buffer.from(hex.slice(0, 32), 'hex').subarray(0, BLOCK_SIZE));
      return block;
    });
  }

  /** Written to a temporary file and renamed: a reader of the folder never sees half a card. */
  private saveCard(uid: string, blocks: Uint8Array[]): void {
    const file: CardFile = { uid, blocks: blocks.map(toHex) };
    const temporary = `${this.cardPath(uid)}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    fs.renameSync(temporary, this.cardPath(uid));
  }

  private requireCard(uid: string): void {
    const present = this.presentUid();
    if (!present) throw new CardReaderFailure('NO_CARD', 'no card lies on the reader');
    if (present !== uid)
      throw new CardReaderFailure('WRONG_CARD', `card ${present} lies on the reader, not ${uid}`);
  }

  status(): ReaderStatus {
    const uid = this.presentUid();
    return {
      backend: this.name,
      readerPresent: true,
      readerName: this.folder,
      readerSerial: readerSerial('simulated'),
      cardPresent: uid !== null,
      cardUid: uid,
      problem: null,
    };
  }

  async readBlock(uid: string, block: number): Promise<Uint8Array> {
    this.requireCard(uid);
    return this.loadCard(uid)[block]!;
  }

  async writeBlock(uid: string, block: number, data: Uint8Array): Promise<void> {
    this.requireCard(uid);
    // The manufacturer block and the trailers (keys) are never written by the service.
    if (block <= 0 || block >= BLOCK_COUNT || isTrailer(block) || data.length !== BLOCK_SIZE)
      throw new CardReaderFailure('READER_ERROR', `block ${block} is not a data block`);
    const blocks = this.loadCard(uid);
    blocks[block] = data;
    this.saveCard(uid, blocks);
  }

  readonly simulate = {
    place: async (uid: string): Promise<void> => {
      await fs.promises.writeFile(path.join(this.folder, PRESENT_FILE), `${uid}\n`);
      this.poll();
    },
    remove: async (): Promise<void> => {
      await fs.promises.rm(path.join(this.folder, PRESENT_FILE), { force: true });
      this.poll();
    },
  };

  async close(): Promise<void> {
    clearInterval(this.timer);
  }
}
