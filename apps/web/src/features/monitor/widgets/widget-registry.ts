import { Skeleton } from 'antd';
import { Suspense, createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadFeatureStrings } from '../../../i18n/i18n';
import type { AreaWidgetProps } from './widget-types';

type Widget = LazyExoticComponent<ComponentType<AreaWidgetProps>>;

/**
 * A widget as its own chunk, downloaded when first drawn, together with the strings it reads
 * (the monitor's, and the IoT ones value texts use), wherever it is drawn.
 */
function widget<Name extends string>(
  load: () => Promise<Record<Name, ComponentType<AreaWidgetProps>>>,
  name: Name,
): Widget {
  return lazy(() =>
    Promise.all([load(), loadFeatureStrings(['iot', 'monitor'])]).then(([module]) => ({
      default: module[name],
    })),
  );
}

/**
 * The areas' own widgets by the names their declarations give (AreaDef.widgets): cards on each
 * device's card, panels beside the selected device. Only the panels that chart load ECharts.
 */
export const AREA_WIDGETS: Record<string, Widget> = {
  insectTrap: widget(() => import('../insect/InsectTrapCard'), 'InsectTrapCard'),
  insectGallery: widget(() => import('../insect/InsectGalleryPanel'), 'InsectGalleryPanel'),
  ledScreen: widget(() => import('../led/LedScreenCard'), 'LedScreenCard'),
  ledControl: widget(() => import('../led/LedControlPanel'), 'LedControlPanel'),
  valveChannels: widget(() => import('./ValveChannelsCard'), 'ValveChannelsCard'),
  gate: widget(() => import('./GateCard'), 'GateCard'),
  pumpStation: widget(() => import('./PumpStationCard'), 'PumpStationCard'),
  fertigation: widget(() => import('./FertigationCard'), 'FertigationCard'),
  soilBars: widget(() => import('./SoilBarsCard'), 'SoilBarsCard'),
  weatherNow: widget(() => import('./WeatherNowCard'), 'WeatherNowCard'),
  irrigationPlan: widget(() => import('./IrrigationPlanPanel'), 'IrrigationPlanPanel'),
  waterDelivered: widget(() => import('./WaterDeliveredPanel'), 'WaterDeliveredPanel'),
  gateFlow: widget(() => import('./GateFlowPanel'), 'GateFlowPanel'),
  pumpTrend: widget(() => import('./PumpTrendPanel'), 'PumpTrendPanel'),
  ecPhTargets: widget(() => import('./EcPhTargetsPanel'), 'EcPhTargetsPanel'),
  fertilizerUse: widget(() => import('./FertilizerUsePanel'), 'FertilizerUsePanel'),
  soilProfile: widget(() => import('./SoilProfilePanel'), 'SoilProfilePanel'),
  windRose: widget(() => import('./WindRosePanel'), 'WindRosePanel'),
  weather24h: widget(() => import('./Weather24hPanel'), 'Weather24hPanel'),
  rainEt0: widget(() => import('./RainEt0Panel'), 'RainEt0Panel'),
  floodStation: widget(() => import('../flood/FloodStationCard'), 'FloodStationCard'),
  rainWindows: widget(() => import('../flood/RainWindowsPanel'), 'RainWindowsPanel'),
  floodLevel: widget(() => import('../flood/FloodLevelPanel'), 'FloodLevelPanel'),
  siltDepth: widget(() => import('../silt/SiltDepthCard'), 'SiltDepthCard'),
  siltTrend: widget(() => import('../silt/SiltTrendPanel'), 'SiltTrendPanel'),
  runoffCard: widget(() => import('../hydrology/RunoffCard'), 'RunoffCard'),
  runoffEvents: widget(() => import('../hydrology/RunoffEventsPanel'), 'RunoffEventsPanel'),
  bayonetFlow: widget(() => import('../hydrology/BayonetFlowPanel'), 'BayonetFlowPanel'),
  cardController: widget(() => import('../card-swipe/CardControllerCard'), 'CardControllerCard'),
};

export interface AreaWidgetRef extends AreaWidgetProps {
  /** A name from the area's declaration; one this console does not know draws nothing. */
  name: string;
}

/** One of an area's widgets for one device, a placeholder while its chunk downloads. */
export function AreaWidget({ name, area, device }: AreaWidgetRef) {
  const Widget = AREA_WIDGETS[name];
  if (!Widget) return null;
  return createElement(
    Suspense,
    { fallback: createElement(Skeleton, { active: true, paragraph: { rows: 3 }, title: false }) },
    createElement(Widget, { area, device }),
  );
}
