import { iotDevicePageRoute, type ThingModel } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { Link } from 'react-router';
import { http } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import type { CellRenderer } from '../../../resource/ResourcePage';
import type { DeviceDetail } from '../device/device-api';

/** The device a row binds, by name, opening the device's page. */
export function DeviceLink({ id, name }: { id: unknown; name: unknown }) {
  if (id === undefined || id === null || id === '') return null;
  return (
    <Link
      to={iotDevicePageRoute(String(id))}
      onClick={(event) => event.stopPropagation()}
      data-testid="binding-device"
    >
      {String(name ?? id)}
    </Link>
  );
}

/**
 * A thing-model property of a device by its name in the reader's language, its key beside it.
 * The device's thing model comes with its detail (the device page's query and cache); until it
 * is known, or when the caller may not read it, the key alone is shown.
 */
export function PropertyName({
  deviceId,
  propertyKey,
}: {
  deviceId: unknown;
  propertyKey: unknown;
}) {
  const label = useLabel();
  const id = String(deviceId ?? '');
  const key = String(propertyKey ?? '');
  const detail = useQuery({
    queryKey: ['iot', 'deviceDetail', id],
    queryFn: ({ signal }) =>
      http.get<DeviceDetail>('/api/iot/device/queryDeviceDetail', {
        params: { id },
        signal,
        silent: true,
      }),
    enabled: id !== '' && key !== '',
    staleTime: 60_000,
  });
  if (!key) return null;
  const model: ThingModel | undefined = detail.data?.thingModel;
  const property = model?.properties.find((candidate) => candidate.key === key);
  if (!property) return <>{key}</>;
  return (
    <span data-testid="binding-property">
      {label(property.name)} <Typography.Text type="secondary">({key})</Typography.Text>
    </span>
  );
}

/** The device column of rows that belong to a device (files, images), linked to its page. */
export const DEVICE_CELL: Readonly<Record<string, CellRenderer>> = {
  deviceId: (value, row) => <DeviceLink id={value} name={row.deviceIdLabel} />,
};

/** The device and property columns of sensor and controller instances. */
export const BINDING_CELLS: Readonly<Record<string, CellRenderer>> = {
  ...DEVICE_CELL,
  propertyKey: (value, row) => <PropertyName deviceId={row.deviceId} propertyKey={value} />,
};
