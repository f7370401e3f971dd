import type { ValveMember } from '@shuili/contract';

/** A rotation step as planned: its groups' channels and its minutes. */
export interface PlannedStep {
  members: readonly ValveMember[];
  minutes: number;
}

/** The channels a step opens, each for how long it stays open. */
export interface StepOpening {
  minutes: number;
  members: ValveMember[];
}

const keyOf = (member: ValveMember) => `${member.deviceId}:${member.channel}`;

/**
 * What step `index` of a rotation opens: its channels that the previous step did not have open,
 * each for as long as it stays in the rotation's consecutive steps (a channel in groups 2 and 3
 * opens once at step 2 for both steps' minutes). A channel carried on from the step before is left
 * alone: closing it at the step's end and opening it again at the same instant would race its own
 * timed close, which might come second and shut it for the next step. Grouped by minutes, one
 * group per duration, in the step's order.
 */
export function stepOpenings(steps: readonly PlannedStep[], index: number): StepOpening[] {
  const before = new Set((steps[index - 1]?.members ?? []).map(keyOf));
  const byMinutes = new Map<number, ValveMember[]>();
  const seen = new Set<string>();
  for (const member of steps[index]?.members ?? []) {
    const key = keyOf(member);
    if (before.has(key) || seen.has(key)) continue;
    seen.add(key);
    let minutes = 0;
    for (let next = index; next < steps.length; next += 1) {
      if (!steps[next]!.members.some((other) => keyOf(other) === key)) break;
      minutes += steps[next]!.minutes;
    }
    byMinutes.set(minutes, [...(byMinutes.get(minutes) ?? []), member]);
  }
  return [...byMinutes].map(([minutes, members]) => ({ minutes, members }));
}
