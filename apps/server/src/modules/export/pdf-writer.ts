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

/**
 * Lays out and draws the table: widths from a sample, wrapped cells, header repeated per page.
 * Rows are measured in a first pass so the page count is known before anything is drawn: pages
 * then go out as they fill instead of being buffered for "n / N" (which cost 750 MB and 5 s
 * for 100,000 rows).
 */
class PdfTable {
  private readonly usable: number;
  private readonly left: number;
  private readonly bottom: number;
  private readonly lineHeight: number;
  private readonly maxCellHeight: number;
  private readonly maxHeaderHeight: number;
  private widths: number[] = [];
  private header: string[] = [];
  private headerTextHeight = 0;
  private pageTop = 0;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly table: ExportTable,
    private readonly fontSize: number,
    private readonly clean: (text: string) => string,
  ) {
    this.left = doc.page.margins.left;
    this.usable = doc.page.width - this.left - doc.page.margins.right;
    this.bottom = doc.page.height - doc.page.margins.bottom;
    doc.font(REGULAR).fontSize(fontSize);
    this.lineHeight = doc.currentLineHeight(true);
    // The half-point slack keeps float rounding from dropping the last line that fits.
    this.maxCellHeight = MAX_CELL_LINES * this.lineHeight + 0.5;
    this.maxHeaderHeight = MAX_HEADER_LINES * this.lineHeight + 0.5;
  }

  private text(value: unknown): string {
    const text = cellText(value).replace(/\r\n?/g, '\n').replace(/\t/g, ' ');
    return this.clean(truncateText(text, PDF_MAX_CELL_CHARS));
  }

  layout(): void {
    const { doc, table } = this;
    const count = table.columns.length;
    const sample = table.rows.slice(0, WIDTH_SAMPLE_ROWS);
    this.header = table.columns.map((column) => this.text(column.label));
    const natural = table.columns.map((column, i) => {
      doc.font(BOLD);
      let width = this.longestLine(this.header[i] ?? '');
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
    this.headerTextHeight = this.textHeight(this.header, this.maxHeaderHeight);
    doc.font(REGULAR);
  }

  private longestLine(text: string): number {
    let longest = 0;
    for (const line of text.slice(0, 200).split('\n'))
      longest = Math.max(longest, this.doc.widthOfString(line));
    return longest;
  }

  private fitsOneLine(text: string, index: number): boolean {
    const inner = (this.widths[index] ?? 0) - 2 * PAD_X;
    return !text.includes('\n') && this.doc.widthOfString(text) <= inner;
  }

  /** Height of the tallest cell's text, at most `maxHeight`. */
  private textHeight(cells: string[], maxHeight: number): number {
    let height = this.lineHeight;
    cells.forEach((text, i) => {
      // Most cells fit one line: widthOfString is far cheaper than running the line wrapper.
      if (text === '' || this.fitsOneLine(text, i)) return;
      const width = Math.max(1, (this.widths[i] ?? 0) - 2 * PAD_X);
      height = Math.max(height, this.doc.heightOfString(text, { width, height: maxHeight }));
    });
    return height;
  }

  private rowCells(index: number): string[] {
    const row = this.table.rows[index] ?? {};
    return this.table.columns.map((column) => this.text(row[column.key]));
  }

  /** Text height of every row (first pass). */
  async measureRows(): Promise<Float64Array> {
    const heights = new Float64Array(this.table.rows.length);
    for (let r = 0; r < heights.length; r++) {
      heights[r] = this.textHeight(this.rowCells(r), this.maxCellHeight);
      if ((r + 1) % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    }
    return heights;
  }

  private get headerHeight(): number {
    return this.headerTextHeight + 2 * PAD_Y;
  }

  /** A row that does not fit goes to the next page, unless it already starts one. */
  private breaksBefore(y: number, rowHeight: number, pageTop: number): boolean {
    return y + rowHeight > this.bottom && y > pageTop + this.headerHeight;
  }

  countPages(heights: Float64Array, firstTop: number): number {
    let pages = 1;
    let pageTop = firstTop;
    let y = firstTop + this.headerHeight;
    for (const height of heights) {
      const rowHeight = height + 2 * PAD_Y;
      if (this.breaksBefore(y, rowHeight, pageTop)) {
        pages++;
        pageTop = this.doc.page.margins.top;
        y = pageTop + this.headerHeight;
      }
      y += rowHeight;
    }
    return pages;
  }

  /** Draws every row; `onPageEnd` runs before each page is left. */
  async drawRows(heights: Float64Array, firstTop: number, onPageEnd: () => void): Promise<void> {
    const { doc } = this;
    let y = this.drawHeader(firstTop);
    for (let r = 0; r < heights.length; r++) {
      const textHeight = heights[r] ?? this.lineHeight;
      const rowHeight = textHeight + 2 * PAD_Y;
      if (this.breaksBefore(y, rowHeight, this.pageTop)) {
        this.closePage(y);
        onPageEnd();
        doc.addPage();
        y = this.drawHeader(doc.page.margins.top);
      }
      if (r % 2 === 1) doc.rect(this.left, y, this.usable, rowHeight).fill(STRIPE_FILL);
      const row = this.table.rows[r] ?? {};
      const numeric = this.table.columns.map((column) => typeof row[column.key] === 'number');
      this.drawCells(this.rowCells(r), numeric, y, textHeight);
      this.rule(y + rowHeight, 0.4);
      y += rowHeight;
      if ((r + 1) % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    }
    this.closePage(y);
    onPageEnd();
  }

  private drawHeader(top: number): number {
    const { doc } = this;
    this.pageTop = top;
    doc.rect(this.left, top, this.usable, this.headerHeight).fill(HEADER_FILL);
    doc.font(BOLD).fontSize(this.fontSize);
    this.drawCells(this.header, [], top, this.headerTextHeight);
    doc.font(REGULAR);
    this.rule(top + this.headerHeight, 0.8);
    return top + this.headerHeight;
  }

  private drawCells(cells: string[], numeric: boolean[], top: number, textHeight: number): void {
    const { doc } = this;
    doc.fillColor('#000000');
    let x = this.left;
    cells.forEach((text, i) => {
      const width = this.widths[i] ?? 0;
      if (text !== '') {
        if (this.fitsOneLine(text, i)) {
          const left = numeric[i] ? x + width - PAD_X - doc.widthOfString(text) : x + PAD_X;
          doc.text(text, left, top + PAD_Y, { lineBreak: false });
        } else {
          // The row's text height bounds every cell: a cell cut there ends in "…".
          doc.text(text, x + PAD_X, top + PAD_Y, {
            width: Math.max(1, width - 2 * PAD_X),
            height: textHeight + 0.5,
            ellipsis: true,
            align: numeric[i] ? 'right' : 'left',
          });
        }
      }
      x += width;
    });
  }

  private rule(y: number, lineWidth: number): void {
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.usable, y)
      .lineWidth(lineWidth)
      .strokeColor(GRID)
      .stroke();
  }

  /** Column lines and the frame, drawn once per page rather than once per cell. */
  private closePage(bottom: number): void {
    const { doc } = this;
    let x = this.left;
    doc.lineWidth(0.4).strokeColor(GRID);
    doc.moveTo(x, this.pageTop).lineTo(x, bottom);
    for (const width of this.widths) {
      x += width;
      doc.moveTo(x, this.pageTop).lineTo(x, bottom);
    }
    doc.moveTo(this.left, this.pageTop).lineTo(x, this.pageTop);
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

function validDate(at: Date | undefined): Date {
  return at && !Number.isNaN(at.getTime()) ? at : new Date();
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
    info: {
      Title: cellText(table.title),
      Creator: 'Shuili',
      CreationDate: validDate(table.generatedAt),
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
  const titleHeight = Math.min(doc.heightOfString(title || ' ', { width: usable, height: 60 }), 60);
  doc.text(title, left, MARGIN, { width: usable, height: titleHeight + 0.5, ellipsis: true });
  let y = MARGIN + titleHeight + 3;
  doc.font(REGULAR).fontSize(8.5).fillColor('#666666');
  doc.text(formatGeneratedAt(table.generatedAt, table.timeZone), left, y, { lineBreak: false });
  y += doc.currentLineHeight(true) + 8;

  let page = 0;
  let pages = 1;
  const footer = () => {
    page++;
    const footerY = doc.page.height - MARGIN - 10;
    const number = `${page} / ${pages}`;
    doc.font(REGULAR).fontSize(8).fillColor('#666666');
    const numberWidth = doc.widthOfString(number);
    // Below the bottom margin: lineBreak false keeps pdfkit from opening a new page for it.
    doc.text(fitLine(doc, title, usable - numberWidth - 24), left, footerY, { lineBreak: false });
    doc.text(number, left + usable - numberWidth, footerY, { lineBreak: false });
  };
  if (count > 0) {
    const grid = new PdfTable(doc, table, fontSizeFor(count), clean);
    grid.layout();
    const heights = await grid.measureRows();
    pages = grid.countPages(heights, y);
    await grid.drawRows(heights, y, footer);
  } else {
    footer();
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
