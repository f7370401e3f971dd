import { CardReaderFailure } from './errors';
import { CARD_TYPES, type CardData, type CardType } from './protocol';

/**
 * How a Shuili card is laid out on a MIFARE Classic 1K (M1) card: 16 sectors of 4 blocks of 16
 * bytes; block 0 is the manufacturer's (UID), the last block of each sector its trailer (keys and
 * access bits). Both backends hand this codec raw blocks, so a simulated card file and a real card
 * hold the same bytes. README.md "Card layout" is the reference for controller firmware.
 *
 * - block 4 (sector 1), header: "SL", layout version, card type (1 user, 2 setting, 3 test,
 *   4 clearing), zeros. All zero: a blank card.
 * - blocks 5-6 (sector 1), card number; blocks 12-14 (sector 3), tenant code: ASCII, 14 bytes a
 *   block, NUL-padded (28 and 42 bytes: the longest UID-style card number, 20 hex digits, and
 *   the longest tenant code, 32 characters, fit).
 * - block 8 (sector 2), purse: balance in fen (int32 LE), write sequence (uint32 LE), zeros.
 *   One block, so balance and sequence change together in a single block write.
 * - bytes 14-15 of each of these blocks: CRC-16/CCITT-FALSE (big-endian) of bytes 0-13, so a
 *   torn write or a tampered byte is seen before anything is trusted or written.
 */
export const BLOCK_SIZE = 16;
export const BLOCK_COUNT = 64;
export const LAYOUT = { header: 4, cardNo: [5, 6], purse: 8, tenantCode: [12, 13, 14] } as const;
/** The blocks read to decode a card, in order. */
export const DATA_BLOCKS = [LAYOUT.header, ...LAYOUT.cardNo, LAYOUT.purse, ...LAYOUT.tenantCode];
/** Characters each text field holds. */
export const TEXT_CAPACITY = { cardNo: 28, tenantCode: 42 } as const;

const MAGIC = [0x53, 0x4c]; // "SL"
const LAYOUT_VERSION = 1;
const TEXT_BYTES = 14;

export function isTrailer(block: number): boolean {
  return block % 4 === 3;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): "123456789" gives 0x29B1. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** A block of 14 bytes of payload and their checksum. */
function sealed(payload: Uint8Array): Uint8Array {
  const block = new Uint8Array(BLOCK_SIZE);
  block.set(payload.subarray(0, TEXT_BYTES));
  const crc = crc16(block.subarray(0, TEXT_BYTES));
  block[14] = crc >> 8;
  block[15] = crc & 0xff;
  return block;
}

function checked(block: Uint8Array | undefined, index: number): Uint8Array {
  if (!block || block.length !== BLOCK_SIZE)
    throw new CardReaderFailure('CORRUPT_CARD', `block ${index} could not be read whole`, {
      block: index,
    });
  const crc = crc16(block.subarray(0, TEXT_BYTES));
  if (block[14] !== crc >> 8 || block[15] !== (crc & 0xff))
    throw new CardReaderFailure('CORRUPT_CARD', `block ${index} fails its checksum`, {
      block: index,
    });
  return block;
}

export function encodeHeader(cardType: CardType): Uint8Array {
  return sealed(
    new Uint8Array([...MAGIC, LAYOUT_VERSION, CARD_TYPES.indexOf(cardType) + 1, 0, 0, 0, 0]),
  );
}

/** A text field's blocks: its ASCII NUL-padded over the blocks, 14 bytes in each. */
export function encodeText(text: string, blocks: readonly number[]): Map<number, Uint8Array> {
  const bytes = new Uint8Array(TEXT_BYTES * blocks.length);
  bytes.set(new TextEncoder().encode(text).subarray(0, bytes.length));
  return new Map(
    blocks.map((block, index) => [
      block,
      sealed(bytes.subarray(index * TEXT_BYTES, (index + 1) * TEXT_BYTES)),
    ]),
  );
}

export function encodePurse(purse: { balanceFen: number; sequence: number }): Uint8Array {
  const payload = new Uint8Array(TEXT_BYTES);
  const view = new DataView(payload.buffer);
  view.setInt32(0, purse.balanceFen, true);
  view.setUint32(4, purse.sequence, true);
  return sealed(payload);
}

export const BLANK_BLOCK = new Uint8Array(BLOCK_SIZE);

function isBlank(block: Uint8Array | undefined): boolean {
  return !!block && block.every((byte) => byte === 0);
}

function decodeText(blocks: ReadonlyMap<number, Uint8Array>, field: readonly number[]): string {
  const bytes = new Uint8Array(TEXT_BYTES * field.length);
  field.forEach((index, at) =>
    bytes.set(checked(blocks.get(index), index).subarray(0, TEXT_BYTES), at * TEXT_BYTES),
  );
  const end = bytes.indexOf(0);
  const text = new TextDecoder().decode(bytes.subarray(0, end < 0 ? bytes.length : end));
  if (!/^[\x21-\x7e]+$/.test(text))
    throw new CardReaderFailure('CORRUPT_CARD', `block ${field[0]} holds no text`, {
      block: field[0]!,
    });
  return text;
}

/** Decodes the data blocks (by number) of the card with this UID; throws CORRUPT_CARD. */
export function decodeCard(uid: string, blocks: ReadonlyMap<number, Uint8Array>): CardData {
  const header = blocks.get(LAYOUT.header);
  if (isBlank(header)) {
    return {
      uid,
      issued: false,
      cardType: null,
      tenantCode: null,
      cardNo: null,
      balanceFen: 0,
      sequence: 0,
    };
  }
  const head = checked(header, LAYOUT.header);
  const cardType = CARD_TYPES[head[3]! - 1];
  if (head[0] !== MAGIC[0] || head[1] !== MAGIC[1] || head[2] !== LAYOUT_VERSION || !cardType)
    throw new CardReaderFailure('CORRUPT_CARD', 'the header block is not a Shuili card layout', {
      block: LAYOUT.header,
    });
  const purse = checked(blocks.get(LAYOUT.purse), LAYOUT.purse);
  const view = new DataView(purse.buffer, purse.byteOffset, BLOCK_SIZE);
  const balanceFen = view.getInt32(0, true);
  if (balanceFen < 0)
    throw new CardReaderFailure('CORRUPT_CARD', 'the purse holds a negative balance', {
      block: LAYOUT.purse,
    });
  return {
    uid,
    issued: true,
    cardType,
    tenantCode: decodeText(blocks, LAYOUT.tenantCode),
    cardNo: decodeText(blocks, LAYOUT.cardNo),
    balanceFen,
    sequence: view.getUint32(4, true),
  };
}

/** Hex of a UID's bytes (the simulated card's block 0 starts with them, then their BCC). */
function uidBytes(uid: string): number[] {
  return uid.match(/../g)!.map((pair) => parseInt(pair, 16));
}

/**
 * A blank card as the factory ships it: block 0 with the UID (and, for a 4-byte UID, its BCC),
 * data blocks zero, trailers with the transport keys FFFFFFFFFFFF and access bits FF0780.
 */
export function blankCardImage(uid: string): Uint8Array[] {
  return Array.from({ length: BLOCK_COUNT }, (_, index) => {
    const block = new Uint8Array(BLOCK_SIZE);
    if (index === 0) {
      const bytes = uidBytes(uid).slice(0, 10);
      block.set(bytes);
      if (bytes.length === 4) block[4] = bytes.reduce((bcc, byte) => bcc ^ byte, 0);
    } else if (isTrailer(index)) {
      block.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x07, 0x80, 0x69]);
      block.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 10);
    }
    return block;
  });
}
