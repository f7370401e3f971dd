import type { FastifyInstance } from 'fastify';
import { mapTileSource } from './map-tiles';

/**
 * The console's Content-Security-Policy. Scripts only from our own origin: no inline script, no
 * eval, so an injected `<script>` or `onerror=` never runs even if some rendering bug lets markup
 * through. Styles allow 'unsafe-inline' because Ant Design's CSS-in-JS writes `<style>` elements
 * at run time (styles cannot run script; the cost is CSS-only tricks, which 'self' images and
 * connections limit). connect-src 'self' covers fetch and the same-origin WebSocket /mqtt (CSP 3
 * lets 'self' match ws:/wss: of our own host). Workers: mqtt.js runs its keep-alive timer in a
 * worker made from a blob: URL (timers in a hidden tab are throttled, a worker's are not); only
 * our own script can make one, so this opens no way in for injected markup. Images: our own,
 * data: (antd icons, the default avatar) and blob: (downloads, previews); an avatar address
 * elsewhere is not loaded and the console shows the default image instead, as it does for any
 * avatar that fails to load; the device map's tiles come from the one tile server configured
 * (consoleCsp). zod is told not to compile schemas with eval in the browser
 * (apps/web/src/lib/zod-without-eval.ts).
 */
function consolePolicy(
  imageSources: readonly string[],
  streamSources: readonly string[] = [],
  cardReaderSources: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageSources].join(' '),
    "font-src 'self' data:",
    ["connect-src 'self'", ...streamSources, ...cardReaderSources].join(' '),
    // Camera streams: hls.js and mpegts.js feed the video element a MediaSource (blob:), and
    // fetch the segments from the console or the camera origins configured (consoleCsp).
    ["media-src 'self' blob:", ...streamSources].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The service desk's card-reading service (packages/card-reader) on the cashier's own machine:
 * the console's WebSocket to it, on exactly its port (CARD_READER_PORT; 0: none), under both
 * names of the loopback. Nothing else on 127.0.0.1 becomes reachable from the console.
 */
export function cardReaderSources(port: number | undefined): string[] {
  return port ? [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] : [];
}

/**
 * The console's policy for its map's tile server (MAP_TILE_URL): images may also come from
 * exactly that server (its origin, or its subdomains when the template picks one with {s}).
 */
export function consoleCsp(
  mapTileUrl: string,
  streamOrigins: readonly string[] = [],
  cardReaderPort?: number,
): string {
  const tiles = mapTileSource(mapTileUrl);
  return consolePolicy(tiles ? [tiles] : [], streamOrigins, cardReaderSources(cardReaderPort));
}

/**
 * The swagger UI at /api/docs gets its own policy (set by @fastify/swagger-ui on its routes)
 * rather than loosening the console's: it is the console's policy without the map's tiles,
 * since the UI version in use loads its initializer from a file; kept separate so a future UI
 * that needs more is changed here alone.
 */
export const API_DOCS_CSP = consolePolicy([]);

/**
 * Downloads of user files: nothing in them may run, load or be framed, whatever a browser
 * decides they are (sandbox also gives them an opaque origin, away from the console's cookies).
 */
export const DOWNLOAD_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Only powerful features the console never uses are turned off; fullscreen stays ours. */
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), browsing-topics=()';

/** Headers every response carries (JSON, assets, index.html, errors and 404s alike). */
export function securityHeaders(options: {
  https: boolean;
  mapTileUrl: string;
  /** VIDEO_STREAM_ORIGINS: where camera streams may be played from besides the console. */
  videoStreamOrigins?: readonly string[];
  /** CARD_READER_PORT: the desk's card-reading service on 127.0.0.1. */
  cardReaderPort?: number;
}): Record<string, string> {
  return {
    'content-security-policy': consoleCsp(
      options.mapTileUrl,
      options.videoStreamOrigins,
      options.cardReaderPort,
    ),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    // Only over HTTPS (SECURE_COOKIES): sent over plain HTTP it would be ignored anyway, and a
    // plain-HTTP installation must not be told to pin HTTPS it does not have.
    ...(options.https
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

/**
 * Adds the security headers to every reply, as it is sent, so handlers, static files, the error
 * handler and the not-found handler all get them. A header a route set itself (a download's
 * sandboxing CSP, the API docs' own policy) is kept.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    https: boolean;
    mapTileUrl: string;
    videoStreamOrigins?: readonly string[];
    cardReaderPort?: number;
  },
): void {
  const headers = Object.entries(securityHeaders(options));
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of headers) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}
