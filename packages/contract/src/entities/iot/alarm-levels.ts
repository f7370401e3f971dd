/**
 * Alarm levels: the four flood warning colours of DOMAINS.md (blue lowest, red highest); every
 * area uses them ("warning" is yellow, "danger" red). Seeded as the `alarm_level` dictionary.
 * A module of its own so the console shell (the flood area's declaration) can name them without
 * the entity kit.
 */
export const ALARM_LEVELS = ['blue', 'yellow', 'orange', 'red'] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];
