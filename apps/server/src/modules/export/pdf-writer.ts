import PDFDocument from 'pdfkit';
import { cellText, truncateText } from './cell-text';
import type { PdfFonts } from './cjk-font';
import { ROWS_PER_SLICE, yieldToEventLoop } from './event-loop';
import { LANDSCAPE_FROM_COLUMNS, type ExportTable } from './export-table';
import { formatGeneratedAt } from './export-time';

/** A PDF cell is for reading: longer text is cut (and at most MAX_CELL_LINES lines are shown). */
export const PDF_MAX_CELL_CHARS = 1000;
const MAX_CELL_LINES = 12;
const MAX_HEADER_LINES = 4;

const MARGIN = 36;
const FOOTER_SPACE = 18;
const PAD_X = 3;
const PAD_Y = 2.5;
const WIDTH_SAMPLE_ROWS = 200;
const GRID = '#c9d1dc';
const HEADER_FILL = '#d9e2f3';
const STRIPE_FILL = '#f5f7fa';
const REGULAR = 'export-regular';
const BOLD = 'export-bold';

// Helvetica speaks WinAnsi only: anything else would print as mojibake, so it is shown as "?".
const NOT_WIN_ANSI = /[^\n\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;

function fontSizeFor(columnCount: number): number {
  if (columnCount <= 6) return 9;
  if (columnCount <= 10) return 8;
  if (columnCount <= 16) return 7;
  return 6;
}

interface Cell {
  text: string;
  numeric: boolean;
  /** Height of the text alone; a single line when it fits the column. */
  height: number;
  wraps: boolean;
}

/** Lays out and draws the table: widths from a sample, wrapped cells, header repeated per page. */
class PdfTable {
  private readonly usable: number;
  private readonly bottom: number;
  private readonly lineHeight: number;
  private readonly maxCellHeight: number;
  private readonly maxHeaderHeight: number;
  private widths: number[] = [];
  private header: Cell[] = [];
  private headerHeight = 0;
  private pageTop = 0;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly table: ExportTable,
    private readonly fontSize: number,
    private readonly clean: (text: string) => string,
  ) {
    this.usable = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    this.bottom = doc.page.height - doc.page.margins.bottom;
    doc.font(REGULAR).fontSize(fontSize);
    this.lineHeight = doc.currentLineHeight(true);
    // The half-point slack keeps float rounding from dropping the last line that fits.
    this.maxCellHeight = MAX_CELL_LINES * this.lineHeight + 0.5;
    this.maxHeaderHeight = MAX_HEADER_LINES * this.lineHeight + 0.5;
  }

  text(value: unknown): string {
    const text = cellText(value).replace(/\r\n?/g, '\n').replace(/\t/g, ' ');
    return this.clean(truncateText(text, PDF_MAX_CELL_CHARS));
  }

  layout(): void {
    const { doc, table } = this;
    const count = table.columns.length;
    const sample = table.rows.slice(0, WIDTH_SAMPLE_ROWS);
    const natural = table.columns.map((column) => {
      doc.font(BOLD);
      let width = this.longestLine(this.text(column.label));
      doc.font(REGULAR);
      for (const row of sample)
        width = Math.max(width, this.longestLine(this.text(row[column.key])));
      return width + 2 * PAD_X;
    });
    const minWidth = Math.min(this.usable / count, 4 * this.fontSize + 2 * PAD_X);
    const cap = Math.max(this.usable * 0.35, minWidth);
    const widths = natural.map((width) => Math.min(Math.max(width, minWidth), cap));
    const total = widths.reduce((sum, width) => sum + width, 0);
    if (total <= this.usable) {
      this.widths = widths.map((width) => (width * this.usable) / total);
    } else {
      // Too wide: narrow every column in proportion to what it has above the minimum.
      const flexible = total - minWidth * count;
      const excess = total - this.usable;
      this.widths = widths.map((width) => width - ((width - minWidth) * excess) / flexible);
    }
    doc.font(BOLD);
    this.header = table.columns.map((column, i) =>
      this.measure(this.text(column.label), false, this.widths[i] ?? 0, this.maxHeaderHeight),
    );
    this.headerHeight = Math.max(...this.header.map((cell) => cell.height)) + 2 * PAD_Y;
  }

  private longestLine(text: string): number {
    let longest = 0;
    for (const line of text.slice(0, 200).split('\n'))
      longest = Math.max(longest, this.doc.widthOfString(line));
    return longest;
  }

  private measure(text: string, numeric: boolean, width: number, maxHeight: number): Cell {
    const inner = Math.max(1, width - 2 * PAD_X);
    // Most cells fit one line: widthOfString is far cheaper than running the line wrapper.
    if (!text.includes('\n') && this.doc.widthOfString(text) <= inner) {
      return { text, numeric, height: this.lineHeight, wraps: false };
    }
    const height = this.doc.heightOfString(text, { width: inner, height: maxHeight });
    return { text, numeric, height: Math.max(this.lineHeight, height), wraps: true };
  }

  /** Draws the header row at `top` and returns where the first body row starts. */
  drawHeader(top: number): number {
    const { doc } = this;
    this.pageTop = top;
    doc.rect(doc.page.margins.left, top, this.usable, this.headerHeight).fill(HEADER_FILL);
    doc.font(BOLD).fontSize(this.fontSize);
    this.drawCells(this.header, top, this.maxHeaderHeight);
    doc.font(REGULAR);
    this.rule(top + this.headerHeight, 0.8);
    return top + this.headerHeight;
  }

  async drawRows(top: number): Promise<void> {
    const { doc, table } = this;
    let y = top;
    for (let r = 0; r < table.rows.length; r++) {
      const row = table.rows[r] ?? {};
      const cells = table.columns.map((column, i) => {
        const value = row[column.key];
        return this.measure(
          this.text(value),
          typeof value === 'number',
          this.widths[i] ?? 0,
          this.maxCellHeight,
        );
      });
      const height = Math.max(...cells.map((cell) => cell.height)) + 2 * PAD_Y;
      if (y + height > this.bottom) {
        this.closePage(y);
        doc.addPage();
        y = this.drawHeader(doc.page.margins.top);
      }
      if (r % 2 === 1) doc.rect(doc.page.margins.left, y, this.usable, height).fill(STRIPE_FILL);
      this.drawCells(cells, y, this.maxCellHeight);
      this.rule(y + height, 0.4);
      y += height;
      if ((r + 1) % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    }
    this.closePage(y);
  }

  private drawCells(cells: Cell[], top: number, maxHeight: number): void {
    const { doc } = this;
    doc.fillColor('#000000');
    let x = doc.page.margins.left;
    cells.forEach((cell, i) => {
      const width = this.widths[i] ?? 0;
      if (cell.text !== '') {
        if (!cell.wraps) {
          const left = cell.numeric ? x + width - PAD_X - doc.widthOfString(cell.text) : x + PAD_X;
          doc.text(cell.text, left, top + PAD_Y, { lineBreak: false });
        } else {
          doc.text(cell.text, x + PAD_X, top + PAD_Y, {
            width: width - 2 * PAD_X,
            height: Math.min(cell.height + 0.5, maxHeight),
            ellipsis: true,
            align: cell.numeric ? 'right' : 'left',
          });
        }
      }
      x += width;
    });
  }

  private rule(y: number, lineWidth: number): void {
    const left = this.doc.page.margins.left;
    this.doc
      .moveTo(left, y)
      .lineTo(left + this.usable, y)
      .lineWidth(lineWidth)
      .strokeColor(GRID)
      .stroke();
  }

  /** Column lines and the frame, drawn once per page rather than once per cell. */
  private closePage(bottom: number): void {
    const { doc } = this;
    let x = doc.page.margins.left;
    doc.lineWidth(0.4).strokeColor(GRID);
    doc.moveTo(x, this.pageTop).lineTo(x, bottom);
    for (const width of this.widths) {
      x += width;
      doc.moveTo(x, this.pageTop).lineTo(x, bottom);
    }
    doc.moveTo(doc.page.margins.left, this.pageTop).lineTo(x, this.pageTop);
    doc.stroke();
  }
}

/** The longest prefix of `text` (plus "…") that fits `width` at the current font. */
function fitLine(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return truncateText(text, low + 1);
}

function registerFonts(doc: PDFKit.PDFDocument, fonts: PdfFonts): void {
  if (fonts.kind === 'embedded') {
    doc.registerFont(REGULAR, fonts.regular.data, fonts.regular.postscriptName);
    doc.registerFont(BOLD, fonts.bold.data, fonts.bold.postscriptName);
  } else {
    doc.registerFont(REGULAR, 'Helvetica');
    doc.registerFont(BOLD, 'Helvetica-Bold');
  }
}

/**
 * A PDF: title, generation time, the table (header on every page, long text wrapped) and
 * "page / pages" in the footer. Text is real text in an embedded font, so it can be searched.
 */
export async function renderPdf(table: ExportTable, fonts: PdfFonts): Promise<Buffer> {
  const clean =
    fonts.kind === 'embedded'
      ? (text: string) => text
      : (text: string) => text.replace(NOT_WIN_ANSI, '?');
  const title = clean(cellText(table.title).replace(/\s+/g, ' ').trim());
  const count = table.columns.length;
  const doc = new PDFDocument({
    size: 'A4',
    layout: count >= LANDSCAPE_FROM_COLUMNS ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    // Kept in memory until the end, when the page count for "n / N" is known.
    bufferPages: true,
    info: {
      Title: cellText(table.title),
      Creator: 'Shuili',
      CreationDate: table.generatedAt ?? new Date(),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  registerFonts(doc, fonts);

  const left = doc.page.margins.left;
  const usable = doc.page.width - left - doc.page.margins.right;
  doc.font(BOLD).fontSize(15).fillColor('#000000');
  const titleHeight = Math.min(doc.heightOfString(title || ' ', { width: usable }), 60);
  doc.text(title, left, MARGIN, { width: usable, height: titleHeight + 0.5, ellipsis: true });
  let y = MARGIN + titleHeight + 3;
  doc.font(REGULAR).fontSize(8.5).fillColor('#666666');
  doc.text(formatGeneratedAt(table.generatedAt, table.timeZone), left, y, { lineBreak: false });
  y += doc.currentLineHeight(true) + 8;

  if (count > 0) {
    const grid = new PdfTable(doc, table, fontSizeFor(count), clean);
    grid.layout();
    await grid.drawRows(grid.drawHeader(y));
  }

  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    const footerY = doc.page.height - MARGIN - 10;
    const number = `${i - pages.start + 1} / ${pages.count}`;
    doc.font(REGULAR).fontSize(8).fillColor('#666666');
    const numberWidth = doc.widthOfString(number);
    // Below the bottom margin: lineBreak false keeps pdfkit from opening a new page for it.
    doc.text(fitLine(doc, title, usable - numberWidth - 24), left, footerY, { lineBreak: false });
    doc.text(number, left + usable - numberWidth, footerY, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
