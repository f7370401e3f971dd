/** Compass sectors of the wind rose: 16 of 22.5°, the first centred on north. */
export const WIND_SECTORS = 16;

/**
 * Upper limits (m/s) of the rose's speed classes, from the Beaufort scale: light air (< 1.6),
 * light breeze (< 3.4), gentle (< 5.5), moderate (< 8.0), fresh (< 10.8), and stronger.
 * Below CALM_BELOW the direction means nothing: calm is counted apart, as meteorologists do.
 */
export const SPEED_LIMITS = [1.6, 3.4, 5.5, 8.0, 10.8] as const;
export const CALM_BELOW = 0.3;

/** One observation: where the wind comes from (° from north, clockwise) and how fast. */
export interface WindSample {
  direction: number;
  speed: number;
}

/** The sector (0 = N, 1 = NNE, ...) a direction falls in; sectors are centred on their bearing. */
export function sectorOf(direction: number, sectors = WIND_SECTORS): number {
  const width = 360 / sectors;
  const normalised = ((direction % 360) + 360) % 360;
  return Math.floor((normalised + width / 2) / width) % sectors;
}

/** The speed class of a speed at or above calm: 0 … SPEED_LIMITS.length. */
export function speedClassOf(speed: number, limits: readonly number[] = SPEED_LIMITS): number {
  const index = limits.findIndex((limit) => speed < limit);
  return index === -1 ? limits.length : index;
}

/** A reading of history as the telemetry call answers it. */
export interface KeyReading {
  key: string;
  ts: string | number;
  value: number | null;
}

/**
 * Direction and speed measured together: a station reports both in one message, so readings of
 * the two keys with the same instant form a sample; a reading without its partner is left out.
 */
export function pairWind(
  readings: readonly KeyReading[],
  directionKey = 'windDirection',
  speedKey = 'windSpeed',
): WindSample[] {
  const byTime = new Map<number, { direction?: number; speed?: number }>();
  for (const reading of readings) {
    if (reading.value === null || !Number.isFinite(reading.value)) continue;
    const ms = typeof reading.ts === 'number' ? reading.ts : Date.parse(reading.ts);
    if (!Number.isFinite(ms)) continue;
    const sample = byTime.get(ms) ?? {};
    if (reading.key === directionKey) sample.direction = reading.value;
    else if (reading.key === speedKey) sample.speed = reading.value;
    else continue;
    byTime.set(ms, sample);
  }
  const samples: WindSample[] = [];
  for (const sample of byTime.values()) {
    if (sample.direction !== undefined && sample.speed !== undefined)
      samples.push({ direction: sample.direction, speed: sample.speed });
  }
  return samples;
}

/** The rose: share (%) of all samples per speed class and sector, and the calm share. */
export interface WindRose {
  /** percent[class][sector], classes in SPEED_LIMITS order then the strongest. */
  percent: number[][];
  calmPercent: number;
  total: number;
  /** The sector the wind came from most often (undefined without samples out of calm). */
  prevailing: number | undefined;
}

/** Bins samples into sectors × speed classes as shares of every sample (calm included). */
export function windRose(
  samples: readonly WindSample[],
  sectors = WIND_SECTORS,
  limits: readonly number[] = SPEED_LIMITS,
): WindRose {
  const counts = Array.from({ length: limits.length + 1 }, () =>
    new Array<number>(sectors).fill(0),
  );
  let calm = 0;
  for (const { direction, speed } of samples) {
    if (speed < CALM_BELOW) {
      calm += 1;
      continue;
    }
    counts[speedClassOf(speed, limits)]![sectorOf(direction, sectors)]! += 1;
  }
  const total = samples.length;
  const share = (count: number) => (total === 0 ? 0 : (count / total) * 100);
  const bySector = new Array<number>(sectors).fill(0);
  for (const row of counts) row.forEach((count, sector) => (bySector[sector]! += count));
  const most = Math.max(...bySector);
  return {
    percent: counts.map((row) => row.map(share)),
    calmPercent: share(calm),
    total,
    prevailing: most > 0 ? bySector.indexOf(most) : undefined,
  };
}
