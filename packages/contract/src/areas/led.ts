import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/** Outdoor LED screens and the programs they show (DOMAINS.md "LED screens"). */
export const ledArea = defineArea({
  code: 'led',
  group: '/led',
  title: label('LED screens', 'LED信息屏', 'LED資訊屏'),
  icon: 'desktop',
  menuSequence: 42,
  kinds: ['led_screen'],
  // The program showing (a text) is the card's: the area list answers numbers and states.
  keyFactors: ['powerOn', 'brightness', 'width', 'height', 'signalStrength'],
  reportFactors: ['brightness'],
  totalFactors: [],
  screens: { deviceList: 'ledDeviceManagement' },
  widgets: { card: 'ledScreen', panel: ['ledControl'] },
  settings: [],
  pages: [
    // The programs: thumbnails, resolution, pages, the screens showing each; add, copy, delete.
    { segment: 'ledProgramManagement', page: 'LedProgramListPage', icon: 'profile' },
    // The editor: a canvas at the program's resolution, its pages and a live preview.
    { segment: 'ledEditProgram', page: 'LedProgramEditorPage', icon: 'tool' },
    // Reached from a program: pick screens, send it, watch each screen acknowledge.
    {
      segment: 'setProgram',
      page: 'LedSetProgramPage',
      icon: 'bars',
      hidden: true,
      operator: true,
    },
  ],
  operatorScreens: ['deviceList'],
});
