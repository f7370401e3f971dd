import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { IotCommandPage } from '../../iot/pages/IotCommandPage';
import { areaKindFilter } from '../warnings/area-kind-filter';
import { areaScreenTitleKey, type AreaScreenProps } from './area-screen-props';

/**
 * The operation records of an area (spec: /pumpStation/pumpOperationRecord ...): every command
 * sent to the area's devices (who, when, device, the command and its parameters in words, result,
 * latency), filtered on the server by the area's device kinds, with the list's filters and
 * exports.
 */
export function AreaOperationsPage({ area }: AreaScreenProps) {
  const { t } = useTranslation();
  return (
    <div data-testid="area-operations" data-area={area?.code ?? 'all'}>
      <IotCommandPage
        key={area?.code ?? 'all'}
        title={t(areaScreenTitleKey(area, 'operations') as ParseKeys)}
        fixedFilters={areaKindFilter(area)}
      />
    </div>
  );
}
