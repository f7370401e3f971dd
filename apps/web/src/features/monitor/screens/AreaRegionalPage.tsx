import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AreaRegionView } from '../regional/AreaRegionView';
import { areaScreenTitleKey, type AreaScreenProps } from './area-screen-props';

/**
 * The regional management of an area (spec: /soilMoisture/soilMoistureRegionalManagement ...):
 * the zones its devices serve with their counts by state, the devices (moved between zones by
 * those who may edit devices), and the valve groups of the zones with their member valves.
 */
export function AreaRegionalPage({ area }: AreaScreenProps) {
  const { t } = useTranslation();
  if (!area) return null;
  return (
    <AreaRegionView
      key={area.code}
      area={area}
      title={t(areaScreenTitleKey(area, 'regional') as ParseKeys)}
    />
  );
}
