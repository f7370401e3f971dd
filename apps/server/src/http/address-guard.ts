import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { snapshotAddressAllowed } from './video-sources';

/**
 * The server-side request forgery guard that outbound calls to addresses users type share
 * (camera snapshots, job webhooks): a private, loopback or link-local address is refused unless
 * the allow-list names its host, the address or a block holding it.
 */

/** Whether a URL's host, when it is a literal address, is refused (a name is checked on lookup). */
export function literalAddressRefused(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) !== 0 && !snapshotAddressAllowed(host, host, allowed);
}

/**
 * A DNS lookup for the connection itself that refuses a name any of whose addresses is not
 * allowed: the address checked is the one connected to, so a name that resolves to a public
 * address once and to 127.0.0.1 the next time cannot slip through. `onRefused` is told first,
 * so the caller can tell a refusal from a network error.
 */
export function guardedLookup(allowed: readonly string[], onRefused: () => void): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 4);
      const addresses = found as dns.LookupAddress[];
      // Every address the name has must be allowed: a client may try any of them.
      if (addresses.some((one) => !snapshotAddressAllowed(hostname, one.address, allowed))) {
        onRefused();
        return callback(new Error('address refused'), '', 4);
      }
      if (options.all) return callback(null, addresses as unknown as string, 4);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
