import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/**
 * Canal silt stations against the dredging threshold (DOMAINS.md "Soil moisture and silt"): a
 * silt depth past the station's dredging depth raises a silt warning, cleared once dredged
 * (modules/monitor/station-warnings).
 */
export const siltArea = defineArea({
  code: 'silt',
  group: '/silt',
  title: label('Canal silt', '渠道淤积', '渠道淤積'),
  icon: 'database',
  menuSequence: 39,
  kinds: ['silt_station'],
  keyFactors: ['siltDepth', 'sedimentConcentration', 'turbidity', 'waterLevel', 'velocity'],
  reportFactors: ['siltDepth', 'sedimentConcentration', 'turbidity', 'waterLevel', 'velocity'],
  totalFactors: [],
  screens: {
    monitor: 'siltMonitor',
    deviceList: 'siltDevice',
    dataReport: 'siltDataReport',
    warnings: 'siltWarnInfor',
    regional: 'siltRegionalManagement',
    operations: 'siltOperationRecord',
  },
  widgets: { card: 'siltDepth', panel: ['siltTrend'] },
  settings: [
    {
      key: 'dredgingDepth',
      label: label('Dredging depth', '清淤阈值', '清淤閾值'),
      type: 'number',
      unit: 'm',
      min: 0.01,
      max: 3,
      precision: 2,
      defaultValue: 0.5,
      help: label(
        'Silt deeper than this raises a silt warning; it clears once the canal is dredged.',
        '淤积深度超过此值发出淤积预警,清淤后自动解除。',
        '淤積深度超過此值發出淤積預警,清淤後自動解除。',
      ),
    },
  ],
  operatorScreens: ['monitor', 'deviceList', 'dataReport', 'warnings', 'operations'],
});
