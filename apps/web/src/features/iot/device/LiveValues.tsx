import type { ThingProperty } from '@shuili/contract';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatRelative } from '../../../lib/format';
import { useLabel } from '../../../resource/field-label';
import { formatThingValue, type Reading } from './thing-value';

export interface LiveValuesProps {
  properties: readonly ThingProperty[];
  readings: ReadonlyMap<string, Reading>;
}

/** One card per property of the thing model, with the newest value the device reported. */
export function LiveValues({ properties, readings }: LiveValuesProps) {
  const { t } = useTranslation();
  const label = useLabel();
  if (properties.length === 0) return <Empty description={t('iot.device.noProperties')} />;
  const words = { label, yes: t('iot.device.yes'), no: t('iot.device.no_') };
  return (
    <Row gutter={[12, 12]} data-testid="live-values">
      {properties.map((property) => {
        const reading = readings.get(property.key);
        const text = formatThingValue(property, reading?.value, words);
        return (
          <Col key={property.key} xs={12} md={8} lg={6} xl={4}>
            <Card size="small" data-testid={`live-value-${property.key}`}>
              <Typography.Text type="secondary" ellipsis>
                {label(property.name)}
              </Typography.Text>
              <div style={{ fontSize: 22, fontWeight: 500 }} data-testid="live-value-text">
                {text ?? '—'}
              </div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {reading ? formatRelative(reading.ts) : t('iot.device.noValue')}
              </Typography.Text>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
