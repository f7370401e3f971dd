import QRCode from 'qrcode';

/** A QR code as its module matrix: `dark(row, column)` for 0 ≤ row, column < size. */
export interface QrMatrix {
  size: number;
  dark: (row: number, column: number) => boolean;
}

/**
 * The QR code of a text (error correction M: a label may get scuffed, and M keeps a console
 * address at version 3 or 4, about 30 modules, big enough to scan from a 25 mm square).
 */
export function qrMatrix(text: string): QrMatrix {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size } = qr.modules;
  return { size, dark: (row, column) => qr.modules.get(row, column) === 1 };
}

/** The modules a quiet zone of 4 adds around the code (ISO/IEC 18004). */
export const QR_QUIET_ZONE = 4;

/**
 * Draws a QR code as vector squares at (x, y), `width` wide including its quiet zone (left
 * white): each row's runs of dark modules are one rectangle, so a code is some 200 rectangles.
 */
export function drawQr(
  doc: PDFKit.PDFDocument,
  matrix: QrMatrix,
  x: number,
  y: number,
  width: number,
): void {
  const module = width / (matrix.size + 2 * QR_QUIET_ZONE);
  const left = x + QR_QUIET_ZONE * module;
  const top = y + QR_QUIET_ZONE * module;
  doc.save();
  for (let row = 0; row < matrix.size; row++) {
    let column = 0;
    while (column < matrix.size) {
      if (!matrix.dark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < matrix.size && matrix.dark(row, column)) column++;
      // A hair of overlap so no white seams show between rows when printed.
      doc.rect(left + start * module, top + row * module, (column - start) * module, module + 0.01);
    }
  }
  doc.fillColor('black').fill();
  doc.restore();
}

/**
 * The code as a greyscale picture (RGBA, `scale` pixels a module, quiet zone included): what a
 * decoder reads in tests, from the same matrix the PDF draws.
 */
export function rasterizeQr(
  matrix: QrMatrix,
  scale = 4,
): { width: number; height: number; data: Uint8ClampedArray } {
  const modules = matrix.size + 2 * QR_QUIET_ZONE;
  const width = modules * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const row = Math.floor(y / scale) - QR_QUIET_ZONE;
      const column = Math.floor(x / scale) - QR_QUIET_ZONE;
      if (row < 0 || column < 0 || row >= matrix.size || column >= matrix.size) continue;
      if (!matrix.dark(row, column)) continue;
      const at = (y * width + x) * 4;
      data[at] = 0;
      data[at + 1] = 0;
      data[at + 2] = 0;
    }
  }
  return { width, height: width, data };
}
