import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/**
 * Farm traceability (issue 21, docs/traceability.md, spec §2 group /traceabilitySystem): no
 * device screens of its own (its plots' devices are the soil-moisture and weather areas'), only
 * pages. Each entity page draws the entity kit's screens (features/trace, app/area-pages.ts);
 * menu titles are in the route tables (i18n features/routes). Operators read every screen but
 * the public page's settings. Menu codes carry a `trace` prefix where the segment alone is too
 * common a word to stay unique in a tenant's menus.
 */
export const traceabilityArea = defineArea({
  code: 'traceabilitySystem',
  group: '/traceabilitySystem',
  title: label('Traceability', '农产品溯源', '農產品溯源'),
  icon: 'environment',
  menuSequence: 44,
  kinds: [],
  keyFactors: [],
  reportFactors: [],
  totalFactors: [],
  screens: {},
  menuCodes: {
    base: 'traceBase',
    area: 'traceArea',
    plant: 'tracePlant',
    grow: 'traceGrow',
    harvest: 'traceHarvest',
    process: 'traceProcess',
    package: 'tracePackage',
    resume: 'traceResume',
  },
  widgets: { panel: [] },
  settings: [],
  pages: [
    // What the public /traceHome page shows and its look (administrators only).
    { segment: 'traceHomeMode', page: 'TraceHomeModePage', icon: 'setting' },
    // Bases, plots (outlines) and their devices with live state on a map.
    { segment: 'digitalMap', page: 'DigitalMapPage', icon: 'global', operator: true },
    // Bases (farms) with their producers on a second tab.
    { segment: 'base', page: 'TraceBasePage', icon: 'apartment', operator: true },
    // Plots: outline (GeoJSON), area, soil, the devices serving them.
    { segment: 'area', page: 'TraceAreaPage', icon: 'environment', operator: true },
    // Varieties: crop, variety, category, GTIN, growth period.
    { segment: 'plant', page: 'TracePlantPage', icon: 'experiment', operator: true },
    // Growth records, with the plantings on a second tab.
    { segment: 'grow', page: 'TraceGrowPage', icon: 'bars', operator: true },
    // Farm work: fertilizing, spraying (with its pre-harvest interval), irrigation, weeding.
    { segment: 'farmwork', page: 'TraceFarmworkPage', icon: 'tool', operator: true },
    // Harvest batches, refused before the pre-harvest interval has passed.
    { segment: 'harvest', page: 'TraceHarvestPage', icon: 'appstore', operator: true },
    // Processing with its inputs on a second tab.
    { segment: 'process', page: 'TraceProcessPage', icon: 'control', operator: true },
    // Package batches with their trace codes and scans.
    { segment: 'package', page: 'TracePackagePage', icon: 'tags', operator: true },
    // Shipments with the temperatures recorded.
    { segment: 'logistics', page: 'TraceLogisticsPage', icon: 'cluster', operator: true },
    // One batch's whole chain, backwards to its plot and inputs and forwards to its shipments,
    // with its EPCIS export, label sheet and compliance certificate.
    { segment: 'resume', page: 'TraceResumePage', icon: 'history', operator: true },
  ],
  operatorScreens: [],
});
