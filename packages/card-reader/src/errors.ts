import type { CardData, CardReaderError, CardReaderErrorCode } from './protocol';

/** A refusal the service answers with its code (protocol.ts CARD_READER_ERROR_CODES). */
export class CardReaderFailure extends Error {
  constructor(
    readonly code: CardReaderErrorCode,
    message: string,
    readonly details: { card?: CardData; block?: number } = {},
  ) {
    super(message);
  }

  toError(): CardReaderError {
    return { code: this.code, message: this.message, ...this.details };
  }
}
