import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A truecolour PNG of RGB pixels (row by row, 3 bytes each), with node's zlib only. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const stride = width * 3;
  const rows = Buffer.alloc(height * (1 + stride));
  for (let y = 0; y < height; y++) {
    // Each scanline starts with its filter type: 1 (sub) shrinks smooth photos by half.
    const start = y * (1 + stride);
    rows[start] = 1;
    for (let i = 0; i < stride; i++) {
      const here = rgb[y * stride + i]!;
      const left = i >= 3 ? rgb[y * stride + i - 3]! : 0;
      rows[start + 1 + i] = (here - left) & 0xff;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A small truecolour PNG painted by `colourAt` (x, y → RGB): pictures drawn in code, so the
 * repository carries no binary assets and the same call makes the same bytes.
 */
export function paintPng(
  width: number,
  height: number,
  colourAt: (x: number, y: number) => Rgb,
): Buffer {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rgb.set(colourAt(x, y), (y * width + x) * 3);
  return encodePng(width, height, rgb);
}
