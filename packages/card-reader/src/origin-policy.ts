/**
 * Who may talk to the service. A WebSocket on 127.0.0.1 is reachable from every web page the
 * cashier's browser opens (browsers do not apply the same-origin policy to WebSockets), so the
 * handshake's Origin header, which a page cannot forge, must be one of the console's. The Host
 * header must name this service too, so a page that rebinds its own domain name to 127.0.0.1
 * gets nowhere either.
 */

/** The console of `npm start` on this machine. */
export const DEFAULT_ORIGINS = ['http://localhost:8080', 'http://127.0.0.1:8080'];

/** An origin as browsers send it (scheme, host, port; default port left out), or an error. */
export function normalizeOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`not an origin: "${raw}" (expected e.g. https://shuili.example.com)`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password)
    throw new Error(`not an http(s) origin: "${raw}"`);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new Error(`an origin has no path: "${raw}" (give ${url.origin})`);
  return url.origin;
}

export interface OriginPolicy {
  origins: ReadonlySet<string>;
}

export function originPolicy(origins: readonly string[]): OriginPolicy {
  return { origins: new Set(origins.map(normalizeOrigin)) };
}

/** Why a handshake is refused, or null when it may go ahead. */
export function refusal(
  policy: OriginPolicy,
  headers: { origin?: string | undefined; host?: string | undefined },
  port: number,
): string | null {
  const host = headers.host?.toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
    return `host ${host ?? '(none)'} is not this service`;
  if (!headers.origin) return 'no Origin header (only the console in a browser is served)';
  let origin: string;
  try {
    origin = new URL(headers.origin).origin;
  } catch {
    return `origin ${headers.origin} is not an origin`;
  }
  if (!policy.origins.has(origin))
    return `origin ${headers.origin} is not a console this service serves (--origin)`;
  return null;
}
