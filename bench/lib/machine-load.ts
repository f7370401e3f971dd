import os from 'node:os';
import { median, round } from './stats';

/** The machine's 1-minute load average, sampled while a benchmark runs (others may share it). */
export function watchLoad() {
  const samples = [os.loadavg()[0]!];
  const timer = setInterval(() => samples.push(os.loadavg()[0]!), 5_000).unref();
  return () => {
    clearInterval(timer);
    samples.push(os.loadavg()[0]!);
    return {
      atStart: round(samples[0]!),
      max: round(Math.max(...samples)),
      median: round(median(samples)),
      atEnd: round(samples.at(-1)!),
    };
  };
}
