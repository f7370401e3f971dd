import type { AreaReport, ReportBucket, ReportSeries } from '@shuili/contract';

const PARTS: Record<ReportBucket, Intl.DateTimeFormatOptions> = {
  raw: {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
  hour: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' },
  day: { year: 'numeric', month: '2-digit', day: '2-digit' },
  month: { year: 'numeric', month: '2-digit' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A point's time as the report's table writes it, in the tenant's zone (where its buckets were
 * cut), as much of it as the bucket tells: "2026-03-05 14:00", "2026-03-05", "2026-03".
 */
export function bucketText(at: number, bucket: ReportBucket, timeZone: string): string {
  const id = `${bucket}|${timeZone}`;
  let format = formats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...PARTS[bucket], timeZone, hourCycle: 'h23' });
    formats.set(id, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  const date = [parts.year, parts.month, parts.day].filter(Boolean).join('-');
  if (bucket === 'day' || bucket === 'month') return date;
  const time = [parts.hour === '24' ? '00' : parts.hour, parts.minute, parts.second]
    .filter(Boolean)
    .join(':');
  return `${date} ${time}`;
}

/** A number with the factor's decimals (two for means of states and undeclared ones). */
export function valueText(value: number | null | undefined, precision: number | null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const digits = precision ?? 2;
  return Number(value.toFixed(digits)).toLocaleString('en-US', {
    maximumFractionDigits: digits,
    useGrouping: false,
  });
}

/** The series' identity in tables and charts. */
export const seriesId = (series: Pick<ReportSeries, 'deviceId' | 'key'>) =>
  `${series.deviceId}|${series.key}`;

/**
 * What a series shows per point: its bucket's total for factors that total (a day's rain, a
 * counter's increase), else its mean (the reading itself when raw).
 */
export function shownValues(series: ReportSeries): Array<number | null> {
  return series.total ?? series.avg;
}

/** One row per point time (the union of every series' times, ascending), the series' values. */
export function pointRows(
  report: AreaReport,
): Array<{ at: number; values: Record<string, number | null> }> {
  const rows = new Map<number, Record<string, number | null>>();
  for (const series of report.series) {
    const values = shownValues(series);
    const id = seriesId(series);
    series.at.forEach((at, index) => {
      let row = rows.get(at);
      if (!row) rows.set(at, (row = {}));
      row[id] = values[index] ?? null;
    });
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([at, values]) => ({ at, values }));
}
