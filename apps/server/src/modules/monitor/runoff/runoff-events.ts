/** A stored reading: its time (epoch ms) and value. */
export interface Reading {
  at: number;
  value: number;
}

/** What a plot's events are cut and totalled with (its settings and its product's units). */
export interface RunoffPlot {
  /** m². */
  area: number;
  /** L/s: an event starts when the flow rises above it. */
  startFlow: number;
  /** An event ends once the flow has stayed at or below startFlow this long (ms). */
  quietMs: number;
  /** Rain is counted from this long before the runoff starts (ms). */
  rainLeadMs: number;
  /** m³/s per unit of the product's flow. */
  flowScale: number;
  /** kg/m³ per unit of the product's concentration. */
  concentrationScale: number;
}

/** One event with its totals; `endAt` null while it is still under way. */
export interface RunoffEventTotals {
  startAt: number;
  endAt: number | null;
  ongoing: boolean;
  /** mm fallen on the plot's gauge from rainLead before the start to the end. */
  rainfall: number;
  /** m³: ∫ flow dt. */
  runoffVolume: number;
  /** kg: ∫ flow × concentration dt. */
  sedimentYield: number;
  /** mm: volume over the plot's area. */
  runoffDepth: number;
  /** Runoff depth / rainfall; null when no rain was recorded. */
  runoffCoefficient: number | null;
  /** L/s. */
  peakFlow: number;
}

/** A concentration sample applies to flows read up to this long after it. */
const CONCENTRATION_HOLD_MS = 3_600_000;

/**
 * Cuts runoff events out of a plot's readings (each list in time order) and totals each: an
 * event starts at the first reading above the start flow and ends at the first reading at or
 * below it after which the flow stays there for the quiet time (a shorter lull belongs to the
 * event). Volume and sediment are integrated by trapezoids over the event's readings, from its
 * start to its end (the fall back to the threshold included). An event whose quiet time has not
 * passed by `now` is ongoing: totals so far, no end.
 */
export function detectRunoffEvents(
  flow: readonly Reading[],
  rain: readonly Reading[],
  concentration: readonly Reading[],
  plot: RunoffPlot,
  now: number,
): RunoffEventTotals[] {
  const litres = (reading: Reading) => reading.value * plot.flowScale * 1000;
  const events: RunoffEventTotals[] = [];
  let start = -1;
  let below = -1;
  const close = (end: number, ongoing: boolean) => {
    events.push(totals(flow.slice(start, end + 1), rain, concentration, plot, ongoing, now));
    start = -1;
    below = -1;
  };
  for (let i = 0; i < flow.length; i++) {
    const reading = flow[i]!;
    const above = litres(reading) > plot.startFlow;
    if (start >= 0 && below >= 0 && reading.at - flow[below]!.at >= plot.quietMs)
      close(below, false);
    if (above) {
      if (start < 0) start = i;
      below = -1;
    } else if (start >= 0 && below < 0) below = i;
  }
  if (start >= 0) {
    const last = flow[flow.length - 1]!;
    if (below >= 0 && now - flow[below]!.at >= plot.quietMs) close(below, false);
    // A plot gone silent while flowing: the event ends at its last reading once quiet time passed.
    else if (below < 0 && now - last.at >= plot.quietMs) close(flow.length - 1, false);
    else close(flow.length - 1, true);
  }
  return events;
}

function totals(
  readings: readonly Reading[],
  rain: readonly Reading[],
  concentration: readonly Reading[],
  plot: RunoffPlot,
  ongoing: boolean,
  now: number,
): RunoffEventTotals {
  const startAt = readings[0]!.at;
  const endAt = ongoing ? null : readings[readings.length - 1]!.at;
  const m3 = (reading: Reading) => reading.value * plot.flowScale;
  const kgPerM3 = (at: number) => {
    let found: Reading | undefined;
    for (const sample of concentration) {
      if (sample.at > at) break;
      found = sample;
    }
    return found && at - found.at <= CONCENTRATION_HOLD_MS
      ? found.value * plot.concentrationScale
      : 0;
  };
  let runoffVolume = 0;
  let sedimentYield = 0;
  let peakFlow = 0;
  for (let i = 0; i < readings.length; i++) {
    const here = readings[i]!;
    peakFlow = Math.max(peakFlow, m3(here) * 1000);
    if (i === 0) continue;
    const before = readings[i - 1]!;
    const seconds = (here.at - before.at) / 1000;
    runoffVolume += ((m3(before) + m3(here)) / 2) * seconds;
    sedimentYield +=
      ((m3(before) * kgPerM3(before.at) + m3(here) * kgPerM3(here.at)) / 2) * seconds;
  }
  const rainFrom = startAt - plot.rainLeadMs;
  const rainTo = endAt ?? now;
  const rainfall = rain
    .filter((reading) => reading.at > rainFrom && reading.at <= rainTo)
    .reduce((sum, reading) => sum + reading.value, 0);
  const runoffDepth = (runoffVolume / plot.area) * 1000;
  return {
    startAt,
    endAt,
    ongoing,
    rainfall,
    runoffVolume,
    sedimentYield,
    runoffDepth,
    runoffCoefficient: rainfall > 0 ? runoffDepth / rainfall : null,
    peakFlow,
  };
}
