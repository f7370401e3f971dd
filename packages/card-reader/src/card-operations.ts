import type { ReaderBackend } from './backends/backend';
import {
  BLANK_BLOCK,
  DATA_BLOCKS,
  LAYOUT,
  decodeCard,
  encodeHeader,
  encodePurse,
  encodeText,
} from './card-layout';
import { CardReaderFailure } from './errors';
import type { CardData, CardType, WriteResult } from './protocol';

/** The sequence after a write (it wraps like the card's uint32). */
function next(sequence: number): number {
  return (sequence + 1) >>> 0;
}

/**
 * What the service does with a card: read, compare-and-write the purse, issue and erase, each on
 * top of any backend's raw blocks. One operation at a time: two console tabs asking at once must
 * not interleave a read and a write, or the compare would no longer protect anything.
 */
export class CardOperations {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly backend: ReaderBackend) {}

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The UID of the card on the reader, or why there is none. */
  private presentUid(): string {
    const status = this.backend.status();
    if (!status.readerPresent)
      throw new CardReaderFailure('NO_READER', status.problem ?? 'no card reader');
    if (!status.cardUid) throw new CardReaderFailure('NO_CARD', 'no card lies on the reader');
    return status.cardUid;
  }

  private async decode(uid: string): Promise<CardData> {
    const blocks = new Map<number, Uint8Array>();
    for (const block of DATA_BLOCKS) blocks.set(block, await this.backend.readBlock(uid, block));
    return decodeCard(uid, blocks);
  }

  /** The card on the reader; when uid is given it must be that card. */
  private async cardOnReader(uid?: string): Promise<CardData> {
    const present = this.presentUid();
    if (uid && uid !== present)
      throw new CardReaderFailure('WRONG_CARD', `card ${present} lies on the reader, not ${uid}`);
    return this.decode(present);
  }

  read(): Promise<CardData> {
    return this.exclusive(() => this.cardOnReader());
  }

  /**
   * Compare-and-write of the purse. The card must be the one named and still hold
   * expectedSequence: a controller that deducted a session in between (offline, so the server
   * has not heard of it yet) has moved the sequence on, and its deduction is never overwritten.
   * A card already holding exactly this write (the answer to an earlier attempt was lost) answers
   * ok with alreadyWritten, so the console can send the same write again safely.
   */
  write(input: {
    uid: string;
    expectedSequence: number;
    balanceFen: number;
  }): Promise<WriteResult> {
    return this.exclusive(async () => {
      const card = await this.cardOnReader(input.uid);
      if (!card.issued) throw new CardReaderFailure('NOT_ISSUED', 'the card is blank', { card });
      const sequence = next(input.expectedSequence);
      if (card.sequence === sequence && card.balanceFen === input.balanceFen)
        return { ...card, alreadyWritten: true };
      if (card.sequence !== input.expectedSequence)
        throw new CardReaderFailure(
          'STALE_SEQUENCE',
          `the card holds sequence ${card.sequence}, not ${input.expectedSequence}`,
          { card },
        );
      await this.backend.writeBlock(
        input.uid,
        LAYOUT.purse,
        encodePurse({ balanceFen: input.balanceFen, sequence }),
      );
      const written = await this.verify(input.uid, (after) => {
        return after.balanceFen === input.balanceFen && after.sequence === sequence;
      });
      return { ...written, alreadyWritten: false };
    });
  }

  /**
   * Writes a blank card's identity and purse. The header goes last: a card taken away halfway
   * is still blank (controllers refuse it) and the issue can simply be done again.
   */
  issue(input: {
    uid: string;
    tenantCode: string;
    cardNo: string;
    cardType: CardType;
    balanceFen: number;
  }): Promise<CardData> {
    return this.exclusive(async () => {
      const card = await this.cardOnReader(input.uid);
      if (card.issued)
        throw new CardReaderFailure('ALREADY_ISSUED', `the card is card ${card.cardNo}`, { card });
      const texts = [
        ...encodeText(input.cardNo, LAYOUT.cardNo),
        ...encodeText(input.tenantCode, LAYOUT.tenantCode),
      ];
      for (const [block, data] of texts) await this.backend.writeBlock(input.uid, block, data);
      await this.backend.writeBlock(
        input.uid,
        LAYOUT.purse,
        encodePurse({ balanceFen: input.balanceFen, sequence: 0 }),
      );
      await this.backend.writeBlock(input.uid, LAYOUT.header, encodeHeader(input.cardType));
      return this.verify(
        input.uid,
        (after) =>
          after.issued &&
          after.tenantCode === input.tenantCode &&
          after.cardNo === input.cardNo &&
          after.cardType === input.cardType &&
          after.balanceFen === input.balanceFen &&
          after.sequence === 0,
      );
    });
  }

  /**
   * Blanks a card (cancelled or reclaimed), with the same compare as write. The header goes
   * first: from then on no controller accepts the card, whatever happens to the rest.
   */
  erase(input: { uid: string; expectedSequence: number }): Promise<CardData> {
    return this.exclusive(async () => {
      const card = await this.cardOnReader(input.uid);
      if (!card.issued) return card;
      if (card.sequence !== input.expectedSequence)
        throw new CardReaderFailure(
          'STALE_SEQUENCE',
          `the card holds sequence ${card.sequence}, not ${input.expectedSequence}`,
          { card },
        );
      // DATA_BLOCKS begins with the header.
      for (const block of DATA_BLOCKS) await this.backend.writeBlock(input.uid, block, BLANK_BLOCK);
      return this.verify(input.uid, (after) => !after.issued);
    });
  }

  /** Reads the card back after writing; anything but what was meant is VERIFY_FAILED. */
  private async verify(uid: string, holds: (card: CardData) => boolean): Promise<CardData> {
    let after: CardData;
    try {
      after = await this.decode(uid);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CardReaderFailure('VERIFY_FAILED', `reading back failed: ${reason}`);
    }
    if (!holds(after))
      throw new CardReaderFailure('VERIFY_FAILED', 'the card does not hold what was written', {
        card: after,
      });
    return after;
  }
}
