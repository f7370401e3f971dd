import type { AreaReport } from '@shuili/contract';
import { useCallback } from 'react';
import { useLabel } from '../../../resource/field-label';
import { useUnit } from '../../iot/units';

/** How the report names its devices, factors and series in the reader's language. */
export function useReportLabels(report: AreaReport | undefined) {
  const label = useLabel();
  const unitOf = useUnit();
  const device = useCallback(
    (id: string) => {
      const found = report?.devices.find((one) => one.id === id);
      return found ? (found.deviceName ?? found.deviceNo) : id;
    },
    [report],
  );
  const factor = useCallback(
    (key: string, withUnit = true) => {
      const found = report?.factors.find((one) => one.key === key);
      if (!found) return key;
      const unit = found.unit ? unitOf(found.unit) : undefined;
      return withUnit && unit ? `${label(found.name)} (${unit})` : label(found.name);
    },
    [report, label, unitOf],
  );
  const series = useCallback(
    (deviceId: string, key: string) => `${device(deviceId)} · ${factor(key)}`,
    [device, factor],
  );
  return { device, factor, series };
}
