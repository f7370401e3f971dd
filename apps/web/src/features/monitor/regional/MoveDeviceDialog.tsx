import { TOAST_MS } from '@shuili/contract';
import { useMutation } from '@tanstack/react-query';
import { Modal, TreeSelect, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { regionApi } from './region-api';
import type { RegionDevice, RegionNode } from './region-tree';

interface ZoneChoice {
  value: string;
  title: string;
  children: ZoneChoice[];
}

const choicesOf = (nodes: readonly RegionNode[]): ZoneChoice[] =>
  nodes.map((node) => ({
    value: node.id,
    title: node.zoneName,
    children: choicesOf(node.children),
  }));

export interface MoveDeviceDialogProps {
  /** The device to move; the dialog is open while there is one. */
  device: RegionDevice | undefined;
  zones: readonly RegionNode[];
  onClose: () => void;
  onMoved: () => void;
}

/**
 * Moves a device to another zone (or out of every zone): the device's zoneId updated through the
 * device list's own call, so its permission and the zone rules of the server apply.
 */
export function MoveDeviceDialog({ device, zones, onClose, onMoved }: MoveDeviceDialogProps) {
  const { t } = useTranslation();
  // The choice is the device's zone until another is picked for this device (derived, not reset
  // when the opening animation ends: a zone picked during the animation would be put back).
  const [choice, setChoice] = useState<{ deviceId: string; zoneId: string | undefined }>();
  const zoneId =
    device && choice?.deviceId === device.id ? choice.zoneId : (device?.zoneId ?? undefined);
  const setZoneId = (next: string | undefined) =>
    device && setChoice({ deviceId: device.id, zoneId: next });
  const move = useMutation({
    mutationFn: () => regionApi.moveDevice(device!.id, zoneId ?? null),
    onSuccess: () => {
      feedback.success(t('monitor.regional.moved'), TOAST_MS.success / 1000);
      setChoice(undefined);
      onMoved();
    },
  });
  return (
    <Modal
      open={!!device}
      title={t('monitor.regional.moveTitle', { device: device?.deviceName ?? device?.deviceNo })}
      okText={t('monitor.regional.move')}
      cancelText={t('iot.cancel')}
      confirmLoading={move.isPending}
      okButtonProps={{ 'data-testid': 'region-move-ok' } as ButtonProps}
      destroyOnHidden
      onCancel={() => {
        setChoice(undefined);
        onClose();
      }}
      onOk={() => move.mutate()}
    >
      <Typography.Paragraph type="secondary">{t('monitor.regional.moveHint')}</Typography.Paragraph>
      <TreeSelect
        value={zoneId}
        onChange={(value?: string) => setZoneId(value ?? undefined)}
        treeData={choicesOf(zones)}
        treeDefaultExpandAll
        allowClear
        showSearch={{ treeNodeFilterProp: 'title' }}
        placeholder={t('monitor.regional.noZone')}
        style={{ width: '100%' }}
        data-testid="region-move-zone"
      />
    </Modal>
  );
}
