import { siltArea } from '@shuili/contract';
import { levelCrossing } from '../station-warnings/level-crossing';

/** The alarm rule of the silt warning (tenant data: the alarm lists show the name). */
export const SILT_RULE_NAME = 'Silt above dredging depth';

/**
 * The silt warning: a canal station's silt depth past its dredging depth (area setting) is an
 * orange warning, cleared once the section is dredged (the depth back at or below it).
 */
export const siltWarning = levelCrossing({
  code: 'siltDredging',
  areaCode: siltArea.code,
  propertyKey: 'siltDepth',
  direction: 'above',
  lines: [{ level: 'orange', setting: 'dredgingDepth', rule: SILT_RULE_NAME }],
});
