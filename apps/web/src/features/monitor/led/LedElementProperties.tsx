import { DeleteOutlined } from '@ant-design/icons';
import {
  entityCalls,
  iotDeviceEntity,
  iotDeviceFileEntity,
  LED_FONT_SIZES,
  type LedElement,
  type PageResult,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useLatestReadings } from './use-latest-readings';

/** Kinds of property a live value can show (numbers; switches and states as their codes). */
const NUMERIC = new Set(['number', 'integer', 'boolean', 'enum']);

function useDevices() {
  return useQuery({
    queryKey: ['led', 'devices'],
    queryFn: ({ signal }) =>
      http.get<PageResult<{ id: string; deviceNo: string; deviceName: string }>>(
        entityCalls(iotDeviceEntity).query,
        { params: { currentPage: 1, pageSize: 200 }, signal },
      ),
    staleTime: 60_000,
  });
}

function useImages() {
  return useQuery({
    queryKey: ['led', 'images'],
    queryFn: ({ signal }) =>
      http.get<PageResult<{ id: string; originalName: string; deviceIdLabel?: string }>>(
        entityCalls(iotDeviceFileEntity).query,
        { params: { fileKind: 'image', currentPage: 1, pageSize: 100 }, signal },
      ),
    staleTime: 60_000,
  });
}

export interface LedElementPropertiesProps {
  element: LedElement;
  resolution: { width: number; height: number };
  onChange: (element: LedElement) => void;
  onDelete: () => void;
}

/**
 * The selected element's properties: place and size in screen pixels, colour, font size and
 * alignment, and what it shows (words, a device image, or a device's property with unit and
 * decimals).
 */
export function LedElementProperties({
  element,
  resolution,
  onChange,
  onDelete,
}: LedElementPropertiesProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const devices = useDevices();
  const properties = useLatestReadings(element.binding ? [element.binding.deviceId] : [])[0];
  const images = useImages();
  const set = (patch: Partial<LedElement>) => onChange({ ...element, ...patch });
  const pixels = (key: 'x' | 'y' | 'width' | 'height', max: number) => (
    <Form.Item label={t(`monitor.led.${key}`)} style={{ marginBottom: 8 }}>
      <InputNumber
        min={key === 'width' || key === 'height' ? 1 : 0}
        max={max}
        precision={0}
        value={element[key]}
        data-testid={`led-prop-${key}`}
        onChange={(value) => value !== null && set({ [key]: value })}
      />
    </Form.Item>
  );

  return (
    <Form layout="vertical" size="small" data-testid="led-properties">
      <Typography.Text type="secondary">
        {t(`monitor.led.type.${element.type}`)} · {element.id}
      </Typography.Text>
      <Space wrap style={{ marginTop: 8 }}>
        {pixels('x', resolution.width - 1)}
        {pixels('y', resolution.height - 1)}
        {pixels('width', resolution.width)}
        {pixels('height', resolution.height)}
      </Space>
      {element.type !== 'image' && (
        <Space wrap>
          <Form.Item label={t('monitor.led.color')} style={{ marginBottom: 8 }}>
            <Input
              type="color"
              value={element.color}
              style={{ width: 56, padding: 2 }}
              onChange={(event) => set({ color: event.target.value })}
            />
          </Form.Item>
          <Form.Item label={t('monitor.led.fontSize')} style={{ marginBottom: 8 }}>
            <InputNumber
              min={LED_FONT_SIZES.min}
              max={LED_FONT_SIZES.max}
              precision={0}
              value={element.fontSize}
              onChange={(value) => value !== null && set({ fontSize: value })}
            />
          </Form.Item>
          <Form.Item label={t('monitor.led.align')} style={{ marginBottom: 8 }}>
            <Select
              style={{ width: 96 }}
              value={element.align}
              onChange={(align) => set({ align })}
              options={(['left', 'center', 'right'] as const).map((value) => ({
                value,
                label: t(`monitor.led.aligns.${value}`),
              }))}
            />
          </Form.Item>
        </Space>
      )}
      {element.type !== 'image' && (
        <Form.Item
          label={t(element.type === 'live' ? 'monitor.led.caption' : 'monitor.led.text')}
          style={{ marginBottom: 8 }}
        >
          <Input
            value={element.text}
            maxLength={200}
            data-testid="led-prop-text"
            onChange={(event) => set({ text: event.target.value })}
          />
        </Form.Item>
      )}
      {element.type === 'image' && (
        <Form.Item label={t('monitor.led.image')} style={{ marginBottom: 8 }}>
          <Select
            value={element.fileId}
            placeholder={t('monitor.led.pickImage')}
            onChange={(fileId) => set({ fileId })}
            options={(images.data?.list ?? []).map((row) => ({
              value: String(row.id),
              label: `${row.originalName}${row.deviceIdLabel ? ` · ${row.deviceIdLabel}` : ''}`,
            }))}
          />
        </Form.Item>
      )}
      {element.type === 'live' && (
        <>
          <Form.Item label={t('monitor.led.device')} style={{ marginBottom: 8 }}>
            <Select
              showSearch
              optionFilterProp="label"
              value={element.binding?.deviceId}
              placeholder={t('monitor.led.pickDevice')}
              data-testid="led-prop-device"
              onChange={(deviceId) =>
                set({
                  binding: { deviceId, property: '', unit: '', decimals: 1 },
                })
              }
              options={(devices.data?.list ?? []).map((row) => ({
                value: String(row.id),
                label: `${row.deviceName} (${row.deviceNo})`,
              }))}
            />
          </Form.Item>
          <Form.Item label={t('monitor.led.property')} style={{ marginBottom: 8 }}>
            <Select
              value={element.binding?.property || undefined}
              disabled={!element.binding}
              placeholder={t('monitor.led.pickProperty')}
              data-testid="led-prop-property"
              onChange={(property) => {
                const item = properties?.find((one) => one.key === property);
                set({
                  binding: {
                    ...element.binding!,
                    property,
                    unit: item?.unit ?? '',
                    decimals: Math.min(4, item?.precision ?? 1),
                  },
                });
              }}
              options={(properties ?? [])
                .filter((item) => NUMERIC.has(item.type))
                .map((item) => ({
                  value: item.key,
                  label: `${label(item.name)}${item.unit ? ` (${item.unit})` : ''}`,
                }))}
            />
          </Form.Item>
          {element.binding && (
            <Space wrap>
              <Form.Item label={t('monitor.led.unit')} style={{ marginBottom: 8 }}>
                <Input
                  style={{ width: 80 }}
                  maxLength={16}
                  value={element.binding.unit}
                  onChange={(event) =>
                    set({ binding: { ...element.binding!, unit: event.target.value } })
                  }
                />
              </Form.Item>
              <Form.Item label={t('monitor.led.decimals')} style={{ marginBottom: 8 }}>
                <InputNumber
                  min={0}
                  max={4}
                  precision={0}
                  value={element.binding.decimals}
                  onChange={(decimals) =>
                    decimals !== null && set({ binding: { ...element.binding!, decimals } })
                  }
                />
              </Form.Item>
            </Space>
          )}
        </>
      )}
      <Button danger icon={<DeleteOutlined />} onClick={onDelete} data-testid="led-delete-element">
        {t('monitor.led.deleteElement')}
      </Button>
    </Form>
  );
}
