import { describe, expect, it } from 'vitest';
import { backoffSeconds, clientKey, RATE_RULES } from './rate-limit.service';

describe('clientKey', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('backoffSeconds', () => {
  it('lets three sign-in attempts come at once, then doubles the wait up to the limit', () => {
    const rule = RATE_RULES.signInPerAccountAndIp;
    const waits = Array.from({ length: 11 }, (_, index) => backoffSeconds(rule, index + 1));
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 64, 0, 0]);
    expect(backoffSeconds(RATE_RULES.ipAttempts, 29)).toBe(0);
  });
});
