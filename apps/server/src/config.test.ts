import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  });

  it('trusts a hop count or named proxies, never every X-Forwarded-For entry', () => {
    process.env.TRUST_PROXY = '2';
    expect(loadConfig().trustProxy).toBe(2);
    process.env.TRUST_PROXY = '10.0.0.0/8, 127.0.0.1';
    expect(loadConfig().trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    process.env.TRUST_PROXY = 'true';
    expect(() => loadConfig()).toThrow(/hop count/);
    delete process.env.TRUST_PROXY;
    expect(loadConfig().trustProxy).toBe(false);
  });
});
