import { dayIndex, localDayStart } from './sky';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** One thing an operator (or a device's own timer) does at a local hour on the days it applies. */
export interface PlannedAction {
  /** Local solar hour, 0..24 (fractions are minutes). */
  hour: number;
  /** Whether the action applies on a day (its index since the epoch); every day by default. */
  on?: (day: number) => boolean;
  act: () => void;
}

/**
 * A device's daily routine in the simulation: the demo's pumps start in the morning and stop at
 * night, valves open on their rotation days, a fertigation program runs after breakfast, so the
 * screens show a working district without anyone pressing buttons. Actions fire once when their
 * time is passed (commands sent in between still act at once, and the next action takes over).
 */
export class DailyPlan {
  private last: number;

  constructor(
    private readonly lng: number,
    private readonly actions: readonly PlannedAction[],
    start: number,
  ) {
    this.last = start;
  }

  /** Runs, in time order, the actions whose moment lies in (previous call, now]. */
  advance(now: number): void {
    if (now <= this.last) return;
    const due: Array<{ at: number; action: PlannedAction }> = [];
    for (let day = localDayStart(this.last, this.lng); day <= now; day += DAY_MS) {
      const index = dayIndex(day + HOUR_MS, this.lng);
      for (const action of this.actions) {
        const at = day + action.hour * HOUR_MS;
        if (at > this.last && at <= now && (action.on?.(index) ?? true)) due.push({ at, action });
      }
    }
    this.last = now;
    due.sort((a, b) => a.at - b.at);
    for (const { action } of due) action.act();
  }
}
