import { ALARM_LEVELS, type AlarmLevel, type AlarmPopupLevel } from '@shuili/contract';

/** The colour of each alarm level's tag (the flood warning colours). */
export const LEVEL_COLOR: Record<string, string> = {
  blue: 'blue',
  yellow: 'gold',
  orange: 'orange',
  red: 'red',
};

/** Whether an alarm of this level pops up for a user who chose `lowest` ('off': none does). */
export function popsUp(level: AlarmLevel, lowest: AlarmPopupLevel): boolean {
  if (lowest === 'off') return false;
  return ALARM_LEVELS.indexOf(level) >= ALARM_LEVELS.indexOf(lowest);
}
