import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@shuili/test-support/browser';
import { median, round } from './stats';

export type Preset = 'desktop' | 'mobile';

/** Lighthouse's mobile preset is its default config; desktop is its own. */
const CONFIGS: Record<Preset, Config | undefined> = { desktop: desktopConfig, mobile: undefined };

/** The numbers of one Lighthouse performance run. */
export interface LighthouseRun {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Audits that say how much time they would save (Lighthouse 12's metricSavings), largest first. */
  savings: { audit: string; lcpMs: number; fcpMs: number; tbtMs: number }[];
  warnings: string[];
}

/** The median of each number over the runs (medians taken separately), and every run. */
export interface LighthouseSummary extends Omit<LighthouseRun, 'savings' | 'warnings'> {
  runs: number;
  scores: number[];
  /** The savings Lighthouse reported in the run whose score is the median. */
  savings: LighthouseRun['savings'];
  warnings: string[];
}

/**
 * A Chromium for Lighthouse, launched by chrome-launcher (Lighthouse's own launcher) with the
 * end-to-end tests' flags and remote debugging on a free port. Lighthouse resets the cache and
 * service workers before every run but keeps cookies, so a session made in this browser's default
 * profile (see signInOverCdp) carries into the runs.
 */
export async function launchLighthouseChromium(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_ARGS.map((flag) => (flag === '--headless' ? '--headless=new' : flag)),
    logLevel: 'silent',
  });
}

const metric = (audits: Record<string, { numericValue?: number }>, id: string) => {
  const value = audits[id]?.numericValue;
  if (value === undefined) throw new Error(`Lighthouse gave no ${id}`);
  return value;
};

/**
 * Lighthouse's own failures to record a trace, which it asks to be run again for ("Something
 * went wrong with recording the trace"): seen on a loaded 2-core machine, never about the page.
 */
const TRACE_RECORDING_ERRORS = new Set([
  'NO_NAVSTART',
  'NO_TRACING_STARTED',
  'NO_RESOURCE_REQUEST',
]);
const TRACE_ATTEMPTS = 3;

/** One Lighthouse navigation of `url` with the performance category only. */
export async function lighthouseRun(
  port: number,
  url: string,
  preset: Preset,
): Promise<LighthouseRun> {
  let lhr;
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      CONFIGS[preset],
    );
    lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    const code = lhr.runtimeError?.code;
    if (!code || !TRACE_RECORDING_ERRORS.has(code) || attempt === TRACE_ATTEMPTS) break;
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const score = lhr.categories.performance?.score;
  if (score === null || score === undefined) throw new Error(`no performance score for ${url}`);
  const audits = lhr.audits;
  const savings = Object.values(audits)
    .map((audit) => ({
      audit: audit.id,
      lcpMs: round(audit.metricSavings?.LCP ?? 0, 0),
      fcpMs: round(audit.metricSavings?.FCP ?? 0, 0),
      tbtMs: round(audit.metricSavings?.TBT ?? 0, 0),
    }))
    .filter((saving) => saving.lcpMs + saving.fcpMs + saving.tbtMs > 0)
    .sort((a, b) => b.lcpMs + b.fcpMs + b.tbtMs - (a.lcpMs + a.fcpMs + a.tbtMs));
  return {
    score: Math.round(score * 100),
    fcpMs: round(metric(audits, 'first-contentful-paint'), 0),
    lcpMs: round(metric(audits, 'largest-contentful-paint'), 0),
    tbtMs: round(metric(audits, 'total-blocking-time'), 0),
    cls: round(metric(audits, 'cumulative-layout-shift'), 3),
    speedIndexMs: round(metric(audits, 'speed-index'), 0),
    savings,
    warnings: lhr.runWarnings,
  };
}

/** Sums up repeated runs of one page and preset: the median of each number. */
export function summarise(runs: LighthouseRun[]): LighthouseSummary {
  const of = (pick: (run: LighthouseRun) => number) => median(runs.map(pick));
  const score = of((run) => run.score);
  return {
    runs: runs.length,
    scores: runs.map((run) => run.score),
    score,
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    speedIndexMs: of((run) => run.speedIndexMs),
    savings: runs.find((run) => run.score === score)!.savings,
    warnings: [...new Set(runs.flatMap((run) => run.warnings))],
  };
}
