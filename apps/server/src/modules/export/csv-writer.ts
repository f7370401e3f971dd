import { cellText, neutraliseFormula } from './cell-text';
import { ROWS_PER_SLICE, yieldToEventLoop } from './event-loop';
import type { ExportTable } from './export-table';

/** Excel only reads a CSV file as UTF-8 (and so shows Chinese) when it starts with a BOM. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvCell(value: unknown): string {
  // A number is data, never a formula: "-3" stays as written.
  const text = cellText(value);
  return csvField(typeof value === 'string' ? neutraliseFormula(text) : text);
}

/** RFC 4180 CSV (CRLF, quoted where needed) in UTF-8 with a BOM. */
export async function renderCsv(table: ExportTable): Promise<Buffer> {
  const parts: Buffer[] = [BOM];
  const header = table.columns.map((column) => csvField(neutraliseFormula(cellText(column.label))));
  let lines: string[] = [header.join(',')];
  for (let i = 0; i < table.rows.length; i++) {
    const row = table.rows[i] ?? {};
    lines.push(table.columns.map((column) => csvCell(row[column.key])).join(','));
    if (lines.length >= ROWS_PER_SLICE) {
      // Slices keep each string small: one string for a huge export could pass V8's length limit.
      parts.push(Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'));
      lines = [];
      await yieldToEventLoop();
    }
  }
  if (lines.length > 0) parts.push(Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'));
  return Buffer.concat(parts);
}
