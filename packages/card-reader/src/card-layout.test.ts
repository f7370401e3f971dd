import { describe, expect, it } from 'vitest';
import {
  DATA_BLOCKS,
  LAYOUT,
  blankCardImage,
  crc16,
  decodeCard,
  encodeHeader,
  encodePurse,
  encodeText,
} from './card-layout';
import { CardReaderFailure } from './errors';

function issued(balanceFen: number, sequence: number): Map<number, Uint8Array> {
  return new Map([
    [LAYOUT.header, encodeHeader('user')],
    ...encodeText('04A1B2C3D4E5F6', LAYOUT.cardNo),
    [LAYOUT.purse, encodePurse({ balanceFen, sequence })],
    ...encodeText('a-tenant-code-of-thirty-two-chars', LAYOUT.tenantCode),
  ]);
}

describe('card layout', () => {
  it('checks blocks with CRC-16/CCITT-FALSE', () => {
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0x29b1);
  });

  it('decodes what it encodes, texts across their blocks', () => {
    expect(decodeCard('04A1B2C3', issued(123_45, 7))).toEqual({
      uid: '04A1B2C3',
      issued: true,
      cardType: 'user',
      tenantCode: 'a-tenant-code-of-thirty-two-chars',
      cardNo: '04A1B2C3D4E5F6',
      balanceFen: 123_45,
      sequence: 7,
    });
  });

  it('reads a factory-blank card as not issued', () => {
    const image = blankCardImage('04A1B2C3');
    const blocks = new Map(DATA_BLOCKS.map((block) => [block, image[block]!]));
    expect(decodeCard('04A1B2C3', blocks)).toMatchObject({ issued: false, balanceFen: 0 });
    // Block 0: the UID and its BCC; trailers: transport keys.
    expect(Buffer.from(image[0]!.subarray(0, 5)).toString('hex')).toBe('04a1b2c3d4');
    expect(Buffer.from(image[7]!).toString('hex')).toBe('ffffffffffffff078069ffffffffffff');
  });

  it.each(DATA_BLOCKS)('names block %i when one byte of it changed', (block) => {
    const blocks = issued(500, 1);
    const bytes = new Uint8Array(blocks.get(block)!);
    bytes[2]! ^= 0x01;
    blocks.set(block, bytes);
    const error = (() => {
      try {
        decodeCard('04A1B2C3', blocks);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CardReaderFailure);
    expect(error).toMatchObject({ code: 'CORRUPT_CARD', details: { block } });
  });
});
