import { sectorOf } from './wind-rose';

/** The 16 compass points, clockwise from north (i18n keys monitor.widget.compass.*). */
export const COMPASS_POINTS = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

/** The compass point a wind blows from. */
export const compassPointOf = (direction: number): CompassPoint =>
  COMPASS_POINTS[sectorOf(direction, COMPASS_POINTS.length)]!;
