interface Stamp {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  offset: string;
}

function stampOf(at: Date | undefined, timeZone: string | undefined): Stamp {
  const date = at && !Number.isNaN(at.getTime()) ? at : new Date();
  let format: Intl.DateTimeFormat;
  try {
    format = formatter(timeZone);
  } catch {
    // An unknown zone name must not fail an export: fall back to the server's zone.
    format = formatter(undefined);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return {
    year: parts.year ?? '0000',
    month: parts.month ?? '00',
    day: parts.day ?? '00',
    // Some engines print midnight as "24" even with h23.
    hour: parts.hour === '24' ? '00' : (parts.hour ?? '00'),
    minute: parts.minute ?? '00',
    second: parts.second ?? '00',
    offset: (parts.timeZoneName ?? 'GMT').replace(/^GMT$/, 'GMT+00:00'),
  };
}

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
}

/**
 * "2026-11-22 11:04:05 GMT+08:00": a language-neutral time for document headers (the table
 * carries no locale, so no translated label is printed beside it).
 */
export function formatGeneratedAt(at?: Date, timeZone?: string): string {
  const s = stampOf(at, timeZone);
  return `${s.year}-${s.month}-${s.day} ${s.hour}:${s.minute}:${s.second} ${s.offset}`;
}

/** "20261122-1104", the time part of download file names. */
export function fileStamp(at?: Date, timeZone?: string): string {
  const s = stampOf(at, timeZone);
  return `${s.year}${s.month}${s.day}-${s.hour}${s.minute}`;
}
