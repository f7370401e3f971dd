import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { DEVICE_FILE_MAX_BYTES } from '@shuili/contract';
import { guardedLookup } from '../../http/address-guard';
import { snapshotAddressAllowed } from '../../http/video-sources';

/** Why a snapshot could not be fetched: a message key of the contract's catalogue. */
export class SnapshotRefused extends Error {
  constructor(
    readonly key: 'video.snapshotAddressRefused' | 'video.snapshotUnreachable',
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

/** A camera answers a still image within this long, or not at all as far as we are concerned. */
const TIMEOUT_MS = 8000;

export interface SnapshotSource {
  /** VIDEO_SNAPSHOT_HOSTS: the internal hosts an administrator allowed. */
  allowedHosts: readonly string[];
  /** PUBLIC_URL: what a snapshot path on this server ("/media/...") is relative to. */
  publicUrl: string;
}

/**
 * Fetches a camera's still image on the server's side, guarded against server-side request
 * forgery: http(s) only, no credentials in the address, no redirects, and the address actually
 * connected to is the one checked (the check runs in the connection's own DNS lookup, so a name
 * that resolves to a public address once and to 127.0.0.1 the next time cannot slip through).
 * A private, loopback or link-local address is refused unless VIDEO_SNAPSHOT_HOSTS names it.
 * At most the device file limit is read.
 */
export async function fetchSnapshot(address: string, source: SnapshotSource): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(address, `${source.publicUrl}/`);
  } catch {
    throw new SnapshotRefused('video.snapshotAddressRefused', { host: address.slice(0, 80) });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password)
    throw new SnapshotRefused('video.snapshotAddressRefused', { host });
  if (net.isIP(host) && !snapshotAddressAllowed(host, host, source.allowedHosts))
    throw new SnapshotRefused('video.snapshotAddressRefused', { host });

  let refusedAddress = false;
  const lookup = guardedLookup(source.allowedHosts, () => {
    refusedAddress = true;
  });

  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Buffer>((resolve, reject) => {
    const unreachable = (reason: string) =>
      refusedAddress
        ? new SnapshotRefused('video.snapshotAddressRefused', { host })
        : new SnapshotRefused('video.snapshotUnreachable', { host, reason });
    const request = client.get(
      url,
      { lookup, timeout: TIMEOUT_MS, headers: { accept: 'image/*' } },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          // A redirect is not followed: its target would escape the address check.
          return reject(unreachable(`HTTP ${status}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > DEVICE_FILE_MAX_BYTES) {
            request.destroy();
            return reject(unreachable('too large'));
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', (error) => reject(unreachable(error.message)));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => reject(unreachable(error.message)));
  });
}
