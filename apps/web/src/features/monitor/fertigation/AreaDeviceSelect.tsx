import { AREA_DEVICE_CALLS, type AreaDef, type AreaDevicePage } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { http } from '../../../lib/http';
import type { LabeledValue } from '../../../resource/form-values';

/** Devices one select offers (an area has tens of machines, not thousands). */
const PAGE = 500;

/**
 * A device of one area (its products' kinds), for a form's device field: a fertigation program
 * is made for a fertigation machine, not for any device. Fed by the area device list, so the
 * caller's zones apply; the value keeps its label like the generic reference select's.
 */
export function AreaDeviceSelect({
  area,
  value,
  onChange,
  id,
}: {
  area: AreaDef;
  value?: LabeledValue | null;
  onChange?: (value: LabeledValue | undefined) => void;
  id?: string;
}) {
  const devices = useQuery({
    queryKey: ['monitor', 'areaDeviceOptions', area.code],
    queryFn: ({ signal }) =>
      http.get<AreaDevicePage>(AREA_DEVICE_CALLS.query, {
        params: { area: area.code, pageSize: PAGE },
        signal,
      }),
    staleTime: 60_000,
  });
  return (
    <Select<LabeledValue>
      id={id}
      labelInValue
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? undefined)}
      notFoundContent={devices.isFetching ? <Spin size="small" /> : undefined}
      options={(devices.data?.list ?? []).map((device) => ({
        value: device.id,
        label: `${device.deviceName} (${device.deviceNo})`,
      }))}
      data-testid="area-device-select"
    />
  );
}
