import { crc32, deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A small truecolour PNG painted by `colourAt` (x, y → RGB): the demo's device photos are drawn
 * in code, so the repository carries no binary assets and every start makes the same bytes.
 */
export function paintPng(
  width: number,
  height: number,
  colourAt: (x: number, y: number) => Rgb,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const start = y * (1 + width * 3); // each scanline starts with filter type 0 (none)
    for (let x = 0; x < width; x++) rows.set(colourAt(x, y), start + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SKY: Rgb = [150, 200, 235];
const FIELD: Rgb = [96, 160, 72];
const WATER: Rgb = [58, 120, 190];
const CONCRETE: Rgb = [170, 170, 165];
const STEEL: Rgb = [90, 96, 104];

/** A site photo of a canal with a sluice gate: sky, fields, the canal and the gate's frame. */
export function gatePhoto(): Buffer {
  return paintPng(96, 64, (x, y) => {
    if (y < 22) return SKY;
    const inCanal = y > 34 && y < 50;
    if (x >= 40 && x <= 56 && y >= 16 && y <= 52) {
      if (x <= 42 || x >= 54 || y <= 18) return STEEL; // the hoist frame
      if (y < 34) return CONCRETE; // the raised leaf
    }
    return inCanal ? WATER : FIELD;
  });
}

/** An installation photo of a valve box: the field, the green box and its grey lid. */
export function valveBoxPhoto(): Buffer {
  return paintPng(96, 64, (x, y) => {
    if (y < 18) return SKY;
    if (x >= 30 && x <= 66 && y >= 26 && y <= 56) return y <= 30 ? CONCRETE : [40, 110, 70];
    if (x >= 44 && x <= 52 && y >= 40 && y <= 46) return STEEL; // the valve's handwheel
    return FIELD;
  });
}
