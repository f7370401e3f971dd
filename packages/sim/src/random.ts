/**
 * A seeded pseudo-random source (mulberry32): the physics draw from it so a test with a fixed
 * seed and clock sees the same day every run.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [low, high). */
  between(low: number, high: number): number;
  /** Gaussian (Box-Muller). */
  normal(mean: number, sd: number): number;
  chance(probability: number): boolean;
  /** A new independent source derived from this one (one per device or per process). */
  fork(): Random;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    between: (low, high) => low + (high - low) * next(),
    normal: (mean, sd) => {
      const u = Math.max(next(), 1e-12);
      const v = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    chance: (probability) => next() < probability,
    fork: () => createRandom(Math.floor(next() * 4294967296)),
  };
  return random;
}
