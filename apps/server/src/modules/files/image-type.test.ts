import { describe, expect, it } from 'vitest';
import { fileTypeOf, imageTypeOf } from './image-type';

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
    // The name does not matter: a photo called .txt is still a photo.
    expect(fileTypeOf(content, 'photo.txt')).toBe(type);
  });

  it('refuses what only claims to be an image', () => {
    expect(imageTypeOf(Buffer.from('<svg onload="alert(1)"></svg>'))).toBeUndefined();
    expect(imageTypeOf(Buffer.from('RIFF0000AVI '))).toBeUndefined();
    expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined();
  });

  it('types documents by extension and anything else as plain bytes', () => {
    expect(fileTypeOf(Buffer.from('%PDF-1.7'), 'Manual.PDF')).toBe('application/pdf');
    expect(fileTypeOf(Buffer.from('<html>'), 'page.html')).toBe('application/octet-stream');
    expect(fileTypeOf(Buffer.from('x'), 'no-extension')).toBe('application/octet-stream');
  });
});
