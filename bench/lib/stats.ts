/** The q-quantile (0..1) of a list of numbers, by nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (values: number[]) => quantile(values, 0.5);

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Runs `task` from `concurrency` loops for `seconds`, answering latencies (ms), completions and
 * failures. The loops share one clock, so throughput is completions over the wall time.
 */
export async function closedLoop(
  concurrency: number,
  seconds: number,
  task: () => Promise<boolean>,
) {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const endAt = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < endAt) {
        const t0 = performance.now();
        const ok = await task().catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) failures += 1;
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  return { latencies, failures, completed: latencies.length, perSecond: latencies.length / wall };
}

/** The usual latency summary of a list of milliseconds (NaN quantiles when it is empty). */
export function latencySummary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0
      ? NaN
      : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return {
    count: sorted.length,
    p50Ms: round(at(0.5)),
    p95Ms: round(at(0.95)),
    p99Ms: round(at(0.99)),
    maxMs: round(sorted.at(-1) ?? NaN),
  };
}
