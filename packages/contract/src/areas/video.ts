import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/**
 * Cameras (DOMAINS.md "Video"): spec §2 puts `/video` and `/videoManagement` at the top level,
 * so the area has no route group and its pages are top-level menus. The cameras are an entity
 * (entities/video/camera.entity.ts); their devices (CAM-PTZ) receive the grid's snapshots.
 */
export const videoArea = defineArea({
  code: 'video',
  title: label('Video', '视频监控', '視訊監控'),
  icon: 'video-camera',
  menuSequence: 41,
  kinds: ['camera'],
  keyFactors: ['recording', 'storageFree', 'signalStrength'],
  // The cross-area data report offers the cameras' recorder storage and signal first.
  reportFactors: ['storageFree', 'signalStrength'],
  totalFactors: [],
  screens: {},
  widgets: { panel: [] },
  settings: [],
  pages: [
    // The live grid: operators watch and take snapshots.
    { segment: 'video', page: 'VideoGridPage', icon: 'video-camera', operator: true },
    // Adding, moving and re-addressing cameras is configuration: administrators only.
    { segment: 'videoManagement', page: 'VideoManagementPage', icon: 'setting' },
  ],
  operatorScreens: [],
});
