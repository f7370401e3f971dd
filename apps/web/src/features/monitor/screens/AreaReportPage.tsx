import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AreaReportView } from '../report/AreaReportView';
import { ReportWidgets } from '../report/ReportWidgets';
import { areaScreenTitleKey, type AreaScreenProps } from './area-screen-props';

/**
 * The data report of an area (spec: /irrigation/irrigationDataReport ...), or of every area
 * (/deviceDataReport): devices, factors, range and bucket; statistics, chart and table; xlsx.
 */
export function AreaReportPage({ area }: AreaScreenProps) {
  const { t } = useTranslation();
  return (
    <>
      <AreaReportView
        key={area?.code ?? 'all'}
        area={area}
        title={t(areaScreenTitleKey(area, 'dataReport') as ParseKeys)}
      />
      <ReportWidgets area={area} />
    </>
  );
}
