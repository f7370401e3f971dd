import { cellText } from './cell-text';
import { defaultPdfFonts } from './cjk-font';
import { renderCsv } from './csv-writer';
import { renderDocx } from './docx-writer';
import type { ExportFormat, ExportTable, RenderExportOptions } from './export-table';
import { fileStamp } from './export-time';
import { renderPdf } from './pdf-writer';
import { renderXlsx } from './xlsx-writer';

export type {
  ExportColumn,
  ExportFormat,
  ExportLogger,
  ExportTable,
  ExportValue,
  RenderExportOptions,
} from './export-table';

/** The Content-Type of each export format. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
};

/** Writes the table as a complete file of the given format. */
export async function renderExport(
  format: ExportFormat,
  table: ExportTable,
  options: RenderExportOptions = {},
): Promise<Buffer> {
  switch (format) {
    case 'xlsx':
      return renderXlsx(table);
    case 'docx':
      return renderDocx(table);
    case 'pdf':
      return renderPdf(table, await defaultPdfFonts(options.log));
    case 'csv':
      return renderCsv(table);
    default:
      throw new Error(`Unknown export format: ${String(format satisfies never)}`);
  }
}

/**
 * "users-20261122-0304.xlsx": the base name reduced to ASCII letters, digits, "-" and "_" (accents
 * dropped; "export" when nothing is left, as for a Chinese base name), then the time in `timeZone`.
 */
export function exportFileName(
  baseName: string,
  format: ExportFormat,
  at?: Date,
  timeZone?: string,
): string {
  const base =
    baseName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 80)
      .replace(/[-_]+$/, '')
      .toLowerCase() || 'export';
  return `${base}-${fileStamp(at, timeZone)}.${format}`;
}

/** RFC 5987 attr-chars pass through; everything else (quote, parentheses, "*", UTF-8) is escaped. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the quoted name is a plain-ASCII
 * fallback for old clients, the starred one keeps the real (possibly Chinese) name.
 */
export function contentDisposition(fileName: string): string {
  // cellText drops other controls and lone surrogates (on which encodeURIComponent throws).
  const name =
    cellText(fileName)
      .replace(/[\t\r\n\x7f]/g, '')
      .trim() || 'export';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}
