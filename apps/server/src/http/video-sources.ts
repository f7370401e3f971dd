import net from 'node:net';

/**
 * VIDEO_STREAM_ORIGINS: the origins (scheme, host, port) the console may play camera streams
 * from besides its own. Anything else (a path, a wildcard, a query) stops the server at start,
 * since the Content-Security-Policy names exactly these.
 */
export function streamOrigins(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.origin !== entry.replace(/\/$/, '') ||
      // A host, never a wildcard: the policy allows exactly what is listed.
      !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(url.hostname)
    )
      throw new Error(
        `VIDEO_STREAM_ORIGINS must list http(s) origins such as https://nvr.example.net:8443, got "${entry}"`,
      );
    return url.origin;
  });
}

/**
 * VIDEO_SNAPSHOT_HOSTS: host names, addresses or CIDR blocks on private networks the server may
 * fetch camera snapshots from (an NVR at 10.20.0.15, a camera subnet 192.168.8.0/24).
 */
export function snapshotHosts(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const valid =
      bits !== undefined
        ? net.isIP(address!) !== 0 &&
          /^\d{1,3}$/.test(bits) &&
          Number(bits) <= (net.isIPv4(address!) ? 32 : 128)
        : net.isIP(entry) !== 0 || /^[a-z0-9.-]{1,253}$/.test(entry);
    if (!valid)
      throw new Error(
        `VIDEO_SNAPSHOT_HOSTS must list host names, addresses or CIDR blocks, got "${entry}"`,
      );
  }
  return entries;
}

/** Addresses a server-side fetch must never reach unless an administrator named them. */
const INTERNAL = new net.BlockList();
for (const [address, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(address, bits, 'ipv4');
for (const [address, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(address, bits, 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: net.isIPv4(address) ? 'ipv4' : 'ipv6' };
}

/** Whether an address is private, loopback, link-local, multicast or otherwise not public. */
export function isInternalAddress(address: string): boolean {
  const { address: ip, family } = plain(address);
  return INTERNAL.check(ip, family);
}

/**
 * Whether a snapshot may be fetched from an address reached through a host name: a public
 * address always; an internal one only when the host name, the address or a block holding it
 * is listed in VIDEO_SNAPSHOT_HOSTS.
 */
export function snapshotAddressAllowed(
  host: string,
  address: string,
  allowed: readonly string[],
): boolean {
  if (!isInternalAddress(address)) return true;
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  const { address: ip, family } = plain(address);
  return allowed.some((entry) => {
    if (entry === name || entry === ip) return true;
    const [base, bits] = entry.split('/');
    if (bits === undefined || net.isIP(base!) === 0) return false;
    const block = new net.BlockList();
    const blockFamily = net.isIPv4(base!) ? 'ipv4' : 'ipv6';
    block.addSubnet(base!, Number(bits), blockFamily);
    return blockFamily === family && block.check(ip, family);
  });
}
