import type { CardData } from '@shuili/card-reader/protocol';
import type { CardWrite, DeskReader } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { CardReaderRequestError } from '../reader/card-reader-client';
import { useCardReader, type CardReaderHandle } from '../reader/use-card-reader';
import { deskApi, DESK_KEYS } from './desk-api';

/** How a write after commit ended: on the card, or still pending (the reason, for the cashier). */
export type WriteOutcome = { written: true; card: CardData } | { written: false; problem: string };

export interface DeskReaderHandle {
  reader: CardReaderHandle;
  /** The reader as the server records it beside each desk operation (none without a service). */
  deskReader: DeskReader | undefined;
  /** The number of the card on the reader: the one written on it, else its UID (a blank card). */
  cardOnReader: string | undefined;
  /**
   * Puts a committed image on the card lying on the reader (compare-and-write on the sequence the
   * image was made from) and tells the server how it went. A controller having written the card
   * since (STALE_SEQUENCE) makes the server remake the image on the card's sequence, tried once
   * more; any other failure leaves the write pending, listed at the desk and retried when the
   * card is next read.
   */
  writeImage(write: CardWrite): Promise<WriteOutcome>;
}

/** Writes under way, by write id: a second call (the page's retry of a card just read) joins it. */
const running = new Map<string, Promise<WriteOutcome>>();

function problemOf(error: unknown): string {
  return error instanceof CardReaderRequestError ? error.code : 'READER_ERROR';
}

/** The desk's card reader, with what the desk pages add to it (see DeskReaderHandle). */
export function useDeskReader(): DeskReaderHandle {
  const reader = useCardReader();
  const queries = useQueryClient();
  const status = reader.connection === 'open' ? reader.status : null;
  const deskReader = useMemo<DeskReader | undefined>(
    () =>
      status?.readerPresent
        ? {
            // The reader's own serial where it has one, else its name (PC/SC) or folder.
            serial: (status.readerSerial ?? status.readerName ?? 'reader').slice(0, 128),
            backend: status.backend,
          }
        : undefined,
    [status],
  );
  const card = status?.cardPresent ? reader.card : null;
  const cardOnReader = card ? (card.issued && card.cardNo ? card.cardNo : card.uid) : undefined;

  const writeOnce = useCallback(
    async (write: CardWrite): Promise<WriteOutcome> => {
      const attempt = (image: CardWrite['image']) => {
        const onReader = reader.card;
        if (!onReader) throw new CardReaderRequestError('NO_CARD', 'no card on the reader');
        const number = onReader.issued && onReader.cardNo ? onReader.cardNo : onReader.uid;
        if (number.toUpperCase() !== image.cardNo.toUpperCase())
          throw new CardReaderRequestError('WRONG_CARD', `card ${number} is not ${image.cardNo}`);
        return reader.writeCard({
          uid: onReader.uid,
          expectedSequence: image.sequence - 1,
          balanceFen: image.balanceFen,
        });
      };
      const confirm = (outcome: 'written' | 'failed', extra: object = {}) =>
        deskApi.confirmWrite({ writeId: write.id, outcome, reader: deskReader, ...extra });
      try {
        const card = reader.card;
        // The card already holds this image (its answer was lost, or another tab wrote it).
        if (
          card?.issued &&
          card.sequence === write.image.sequence &&
          card.balanceFen === write.image.balanceFen
        ) {
          await confirm('written');
          return { written: true, card };
        }
        let written;
        try {
          written = await attempt(write.image);
        } catch (error) {
          if (!(error instanceof CardReaderRequestError) || error.code !== 'STALE_SEQUENCE')
            throw error;
          const remade = await confirm('failed', {
            problem: 'STALE_SEQUENCE',
            cardSequence: error.card?.sequence ?? reader.card?.sequence ?? 0,
          });
          written = await attempt(remade.image);
        }
        await confirm('written');
        return { written: true, card: written };
      } catch (error) {
        const problem = problemOf(error);
        await confirm('failed', { problem }).catch(() => undefined);
        return { written: false, problem };
      } finally {
        void queries.invalidateQueries({ queryKey: DESK_KEYS.all });
      }
    },
    [reader, deskReader, queries],
  );

  const writeImage = useCallback(
    (write: CardWrite): Promise<WriteOutcome> => {
      const already = running.get(write.id);
      if (already) return already;
      const started = writeOnce(write).finally(() => running.delete(write.id));
      running.set(write.id, started);
      return started;
    },
    [writeOnce],
  );

  return { reader, deskReader, cardOnReader, writeImage };
}
