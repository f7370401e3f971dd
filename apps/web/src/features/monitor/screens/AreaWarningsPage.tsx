import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AlarmRecordPage } from '../../iot/pages/AlarmRecordPage';
import { areaKindFilter } from '../warnings/area-kind-filter';
import { areaScreenTitleKey, type AreaScreenProps } from './area-screen-props';

/**
 * The warning information of an area (spec: /pumpStation/pumpWarnInfor ...), or of every area
 * (/warningInformation): the alarm list (level, device, factor by its thing-model name, value,
 * threshold, start, end, acknowledgement) of the area's device kinds, filtered on the server,
 * with its filters and acknowledging one alarm or the checked ones.
 */
export function AreaWarningsPage({ area }: AreaScreenProps) {
  const { t } = useTranslation();
  return (
    <div data-testid="area-warnings" data-area={area?.code ?? 'all'}>
      <AlarmRecordPage
        key={area?.code ?? 'all'}
        title={t(areaScreenTitleKey(area, 'warnings') as ParseKeys)}
        fixedFilters={areaKindFilter(area)}
      />
    </div>
  );
}
