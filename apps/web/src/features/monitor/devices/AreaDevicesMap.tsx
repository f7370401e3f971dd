import { Flex, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DevicesMap, type DeviceMarker } from '../../iot/map/DevicesMap';
import { deviceColor } from '../widgets/widget-colors';
import type { AreaDevice } from '../widgets/widget-types';

/** The page's devices on the map in their states' colours; those without a place are counted. */
export function AreaDevicesMap({
  devices,
  onSelect,
}: {
  devices: readonly AreaDevice[];
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const markers = useMemo<DeviceMarker[]>(
    () =>
      devices.flatMap((device) =>
        device.lat === null || device.lng === null
          ? []
          : [
              {
                id: device.id,
                lat: device.lat,
                lng: device.lng,
                title: device.deviceName,
                color: deviceColor(device),
              },
            ],
      ),
    [devices],
  );
  const unlocated = devices.length - markers.length;
  return (
    <Flex vertical gap={8}>
      <DevicesMap markers={markers} onSelect={onSelect} />
      {unlocated > 0 && markers.length > 0 && (
        <Typography.Text type="secondary">
          {t('monitor.devices.unlocated', { count: unlocated })}
        </Typography.Text>
      )}
    </Flex>
  );
}
