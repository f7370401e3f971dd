/** The scheduler kinds and trigger keys of the irrigation area (docs/scheduler.md). */
export const VALVE_CLOSE = 'irrigation.valveClose';
export const ROTATION_START = 'irrigation.rotationStart';
export const ROTATION_STEP = 'irrigation.rotationStep';
export const SOIL_RULE = 'irrigation.soilRule';

/** A channel's timed close: one per channel, so a new timed open replaces it. */
export const valveCloseKey = (deviceId: string, channel: number) =>
  `irrigation:valve-close:${deviceId}:${channel}`;

/** A rotation schedule's daily start. */
export const rotationStartKey = (scheduleId: string) => `irrigation:rotation:${scheduleId}`;

/** The steps of one rotation run (prefix of its step triggers; cancelled together). */
export const rotationStepPrefix = (scheduleId: string) => `irrigation:rotation-step:${scheduleId}:`;

/** One step (index from 0) of the rotation that started at `startedAt` (epoch ms). */
export const rotationStepKey = (scheduleId: string, startedAt: number, step: number) =>
  `${rotationStepPrefix(scheduleId)}${startedAt}:${step}`;

/** A soil-moisture rule's periodic evaluation. */
export const soilRuleKey = (ruleId: string) => `irrigation:soil-rule:${ruleId}`;

/** Holders of valve channels (irrigation_channel_hold.holder). */
export const rotationHolder = (scheduleId: string) => `rotation:${scheduleId}`;
export const soilRuleHolder = (ruleId: string) => `soilRule:${ruleId}`;

/** How often soil-moisture rules are evaluated. */
export const SOIL_RULE_EVERY_SECONDS = 600;
