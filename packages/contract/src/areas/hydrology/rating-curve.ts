/** A station's stage-discharge relation Q = a·(H − H0)^b (DOMAINS.md, bayonet stations). */
export interface RatingCurve {
  /** Coefficient a: m³/s at one metre of head above H0. */
  a: number;
  /** Gauge height of zero flow H0, m. */
  h0: number;
  /** Exponent b (about 1.5 for a weir, 1.6-2.5 for natural sections). */
  b: number;
}

/**
 * Discharge (m³/s) of a rating curve at gauge height `h` (m): a·(h − H0)^b above H0, 0 at or
 * below it (the section is dry there, and a fractional power of a negative head is no number).
 */
export function ratedFlow(curve: RatingCurve, h: number): number {
  const head = h - curve.h0;
  return head > 0 ? curve.a * head ** curve.b : 0;
}

/** Gauge heights a chart of the curve spans: from H0 to `span` metres above it. */
export function ratingCurvePoints(
  curve: RatingCurve,
  span = 3,
  steps = 60,
): Array<[number, number]> {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const h = curve.h0 + (span * i) / steps;
    return [Number(h.toFixed(3)), ratedFlow(curve, h)];
  });
}
