import { describe, expect, it } from 'vitest';
import { consoleCsp } from './security-headers';
import { DEFAULT_MAP_TILE_URL } from './map-tiles';
import {
  isInternalAddress,
  snapshotAddressAllowed,
  snapshotHosts,
  streamOrigins,
} from './video-sources';

/** The CSP's directives by name. */
const directives = (csp: string) =>
  new Map(
    csp.split('; ').map((part) => {
      const [name, ...values] = part.split(' ');
      return [name!, values.join(' ')] as const;
    }),
  );

describe('camera stream origins and snapshot addresses', () => {
  it('takes only http(s) origins as stream origins, and puts exactly those in the CSP', () => {
    expect(streamOrigins(' https://nvr.example.net:8443 , http://10.0.0.5/ ')).toEqual([
      'https://nvr.example.net:8443',
      'http://10.0.0.5',
    ]);
    expect(streamOrigins(undefined)).toEqual([]);
    for (const bad of ['https://nvr.example.net/live', '*', 'rtsp://cam', 'https://*.example.net'])
      expect(() => streamOrigins(bad)).toThrow(/VIDEO_STREAM_ORIGINS/);
    const csp = directives(consoleCsp(DEFAULT_MAP_TILE_URL, ['https://nvr.example.net:8443']));
    expect(csp.get('connect-src')).toBe("'self' https://nvr.example.net:8443");
    expect(csp.get('media-src')).toBe("'self' blob: https://nvr.example.net:8443");
    // Without any, streams play from the console's own origin only.
    expect(directives(consoleCsp(DEFAULT_MAP_TILE_URL)).get('media-src')).toBe("'self' blob:");
  });

  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.20.0.15',
      '172.16.5.4',
      '192.168.8.20',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ])
      expect(isInternalAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '203.0.113.9', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isInternalAddress(address), address).toBe(false);
  });

  it('lets the server reach an internal address only when an administrator listed it', () => {
    const allowed = snapshotHosts('nvr.lan, 10.20.0.15, 192.168.8.0/24, fd00:1::/64');
    expect(snapshotAddressAllowed('cam.example.net', '203.0.113.9', [])).toBe(true);
    expect(snapshotAddressAllowed('nvr.lan', '10.99.0.1', allowed)).toBe(true);
    expect(snapshotAddressAllowed('10.20.0.15', '10.20.0.15', allowed)).toBe(true);
    expect(snapshotAddressAllowed('cam-7', '192.168.8.77', allowed)).toBe(true);
    expect(snapshotAddressAllowed('cam-7', '::ffff:192.168.8.77', allowed)).toBe(true);
    expect(snapshotAddressAllowed('cam-9', 'fd00:1::9', allowed)).toBe(true);
    // A name resolving to an address nobody listed (DNS rebinding to the metadata service).
    expect(snapshotAddressAllowed('cam.example.net', '169.254.169.254', allowed)).toBe(false);
    expect(snapshotAddressAllowed('cam-8', '192.168.9.1', allowed)).toBe(false);
    expect(snapshotAddressAllowed('localhost', '127.0.0.1', allowed)).toBe(false);
    for (const bad of ['10.0.0.0/33', 'not a host!', '300.1.1.1/8'])
      expect(() => snapshotHosts(bad)).toThrow(/VIDEO_SNAPSHOT_HOSTS/);
  });
});
