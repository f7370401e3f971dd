import { describe, expect, it } from 'vitest';
import { imageTypeOf } from './image-type';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    ),
  );

describe('image types by content', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
    ['image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    [
      'image/bmp',
      bytes(
        'BM',
        Array.from({ length: 20 }, () => 0),
      ),
    ],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
  ])('recognises %s', (type, content) => {
    expect(imageTypeOf(content)).toBe(type);
  });

  it('refuses what only claims to be an image', () => {
    expect(imageTypeOf(Buffer.from('<svg onload="alert(1)"></svg>'))).toBeUndefined();
    expect(imageTypeOf(Buffer.from('RIFF0000AVI '))).toBeUndefined();
    expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined();
  });
});
