import {
  AREAS,
  RAIN_WINDOWS,
  rainSumKey,
  type AreaDef,
  type DerivedFactorDef,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { ratedSeries } from '../bayonet/rated-flow.repo';
import { rainStations } from '../flood/flood-status';
import { rollingRainSeries } from '../flood/rolling-rain';
import type { SeriesPoints } from './report-series';

/** Computes a derived factor's points per device over a range, per reading or per bucket. */
type DerivedSource = (
  sql: Sql,
  deviceIds: string[],
  start: Date,
  end: Date,
  bucket: 'raw' | 'hour' | 'day' | 'month',
  timeZone: string,
) => Promise<Map<string, SeriesPoints>>;

/** The server's computation of each factor an area derives (AreaDef.derivedFactors). */
const SOURCES: Record<string, DerivedSource> = {
  ratedFlow: (sql, ids, start, end, bucket, zone) =>
    ratedSeries(sql, ids, 'ratedFlow', start, end, bucket, zone),
  ratedSedimentDischarge: (sql, ids, start, end, bucket, zone) =>
    ratedSeries(sql, ids, 'ratedSedimentDischarge', start, end, bucket, zone),
  // A flood station's rain over each window up to each of its readings.
  ...Object.fromEntries(
    RAIN_WINDOWS.map((hours): [string, DerivedSource] => [
      rainSumKey(hours),
      async (sql, ids, start, end, bucket, zone) =>
        rollingRainSeries(sql, await rainStations(sql, ids), hours, start, end, bucket, zone),
    ]),
  ),
};

/** A derived factor with the kinds of device it is derived for. */
export interface DerivedFactor extends DerivedFactorDef {
  kinds: readonly string[];
  source: DerivedSource;
}

/** The derived factor `key` of the area, or of any area for the cross-area report. */
export function derivedFactorOf(area: AreaDef | undefined, key: string): DerivedFactor | undefined {
  for (const one of area ? [area] : AREAS) {
    const def = one.derivedFactors?.find((factor) => factor.property.key === key);
    const source = SOURCES[key];
    if (def && source) return { ...def, kinds: one.kinds, source };
  }
  return undefined;
}
