import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex';

describe('KeyedMutex', () => {
  it('runs one task at a time per key, keys side by side, and survives failures', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        order.push(`${name}+`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`${name}-`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      mutex.run('a', task('a1', 20, true)),
      mutex.run('a', task('a2', 5)),
      mutex.run('b', task('b1', 5)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(order.indexOf('a2+')).toBeGreaterThan(order.indexOf('a1-'));
    expect(order.indexOf('b1+')).toBeLessThan(order.indexOf('a1-'));
    expect((mutex as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });
});
