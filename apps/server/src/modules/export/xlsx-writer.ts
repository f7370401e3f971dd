import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { cellText, displayWidth, neutraliseFormula, truncateText } from './cell-text';
import { ROWS_PER_SLICE, yieldToEventLoop } from './event-loop';
import type { ExportTable } from './export-table';

/** Excel's own limit for the text of one cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;

/** Rows looked at to size the columns: widths must be known before the first row is streamed. */
const WIDTH_SAMPLE_ROWS = 1000;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

/** Excel's sheet name rules: 1 to 31 characters, none of []:*?/\, no apostrophe at either end. */
export function sheetName(title: string): string {
  let name = cellText(title)
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
  if (name.length > 31) {
    name = name.slice(0, 31);
    const last = name.charCodeAt(30);
    if (last >= 0xd800 && last <= 0xdbff) name = name.slice(0, 30);
    name = name.replace(/'+$/, '').trim();
  }
  // "History" is reserved by Excel for change tracking.
  if (name.toLowerCase() === 'history') name = `${name} 1`;
  return name || 'Sheet1';
}

function xlsxValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  // NaN and Infinity have no spreadsheet number form; writing them would corrupt the sheet.
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const text = cellText(value);
  if (text === '') return null;
  return truncateText(
    typeof value === 'string' ? neutraliseFormula(text) : text,
    XLSX_MAX_CELL_CHARS,
  );
}

function columnWidths(table: ExportTable): number[] {
  const sample = table.rows.slice(0, WIDTH_SAMPLE_ROWS);
  return table.columns.map((column) => {
    let width = displayWidth(column.label);
    for (const row of sample) width = Math.max(width, displayWidth(cellText(row[column.key])));
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width + 2));
  });
}

/**
 * Streams the workbook (exceljs WorkbookWriter): each row is serialised and zipped when it is
 * committed, so 100,000 rows never exist as a workbook object model in memory.
 */
export async function renderXlsx(table: ExportTable): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const drained = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    // Shared strings are what every reader (Numbers, older Excel, Sheets) handles best.
    useSharedStrings: true,
  });
  workbook.creator = 'Shuili';
  const columnCount = table.columns.length;
  const sheet = workbook.addWorksheet(sheetName(table.title), {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  sheet.columns = columnWidths(table).map((width) => ({ width }));
  if (columnCount > 0) {
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columnCount } };
  }

  const header = sheet.addRow(table.columns.map((column) => xlsxValue(column.label)));
  // Styled cell by cell: a row style would paint the row out to column XFD.
  header.eachCell((cell) => {
    cell.font = { bold: true };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E2F3' } };
  });
  header.commit();

  for (let i = 0; i < table.rows.length; i++) {
    const row = table.rows[i] ?? {};
    sheet.addRow(table.columns.map((column) => xlsxValue(row[column.key]))).commit();
    if ((i + 1) % ROWS_PER_SLICE === 0) await yieldToEventLoop();
  }
  sheet.commit();
  await workbook.commit();
  await drained;
  return Buffer.concat(chunks);
}
