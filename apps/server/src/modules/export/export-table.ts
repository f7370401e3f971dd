export type ExportFormat = 'xlsx' | 'docx' | 'pdf' | 'csv';

export type ExportValue = string | number | boolean | null | undefined;

export interface ExportColumn {
  key: string;
  label: string;
}

/** One entity list, already filtered and translated, ready to be written in any export format. */
export interface ExportTable {
  /** Already translated, e.g. "Users" / "用户". */
  title: string;
  /** Labels already translated; the order is the column order of the file. */
  columns: ExportColumn[];
  rows: Array<Record<string, ExportValue>>;
  /** Printed in the docx / pdf header; now when left out. */
  generatedAt?: Date;
  /** IANA zone for the printed time (e.g. "Asia/Shanghai"); the server's zone when left out. */
  timeZone?: string;
}

/** Where a renderer reports a degraded result (a missing CJK font); matches pino's `warn`. */
export interface ExportLogger {
  warn(object: object, message: string): void;
}

export interface RenderExportOptions {
  log?: ExportLogger;
}

/** From this many columns on, docx and pdf pages turn landscape. */
export const LANDSCAPE_FROM_COLUMNS = 7;
