/**
 * The public trace pages' addresses and rules, without zod: the signed-out page's small bundle
 * imports them (apps/web/src/public-trace/), the DTO's schemas are in public-trace.ts.
 */

/** The server's route (Fastify path) and the address a page asks for one code. */
export const PUBLIC_TRACE_ROUTE = '/api/trace/public/:code';
export const publicTraceUrl = (code: string) => `/api/trace/public/${encodeURIComponent(code)}`;

/** The signed-out pages (spec §2): a batch's page, opened from its QR code, and the look-up. */
export const PUBLIC_TRACE_PAGES = { home: '/traceHome', search: '/search' } as const;

/** The page's sections a tenant may hide (trace_page_setting.sections; unnamed: shown). */
export const PUBLIC_TRACE_SECTIONS = [
  'product',
  'producer',
  'base',
  'farmwork',
  'sensors',
  'processing',
  'logistics',
  'scans',
] as const;
export type PublicTraceSection = (typeof PUBLIC_TRACE_SECTIONS)[number];

/**
 * When the page calls a code suspicious (docs/traceability.md "Public page"): more scans in all
 * than one batch's packages plausibly get, or scans from more distinct clients (hashed addresses)
 * within the last 24 hours than one shop's shelf sees.
 */
export const SUSPICIOUS_SCANS = 200;
export const SUSPICIOUS_CLIENTS_PER_DAY = 20;
