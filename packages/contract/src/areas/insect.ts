import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/** Insect-trap lamps that photograph their catch (DOMAINS.md "Insect situation"). */
export const insectArea = defineArea({
  code: 'insectSituationMonitor',
  group: '/insectSituationMonitor',
  title: label('Insect situation', '虫情监测', '蟲情監測'),
  icon: 'bug',
  menuSequence: 40,
  kinds: ['insect_trap'],
  keyFactors: ['lampOn', 'insectCount', 'totalCount', 'airTemperature', 'airHumidity'],
  reportFactors: ['insectCount', 'airTemperature', 'airHumidity'],
  totalFactors: [],
  screens: { deviceList: 'insectDeviceList' },
  // The card: lamp, catch today and in all, the newest photo; the panel: the photos of a day,
  // labelled with species counts, and the day's sums per species.
  widgets: { card: 'insectTrap', panel: ['insectGallery'] },
  settings: [],
  pages: [
    { segment: 'insectImageIntroduction', page: 'InsectSpeciesPage', icon: 'book', operator: true },
  ],
  operatorScreens: ['deviceList'],
});
