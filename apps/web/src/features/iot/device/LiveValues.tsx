import type { ThingProperty } from '@shuili/contract';
import { Card, Col, Empty, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import { FreshValue, ReadingAge } from './ReadingFreshness';
import { useValueWords } from '../units';
import { formatThingValue, type Reading } from './thing-value';

export interface LiveValuesProps {
  properties: readonly ThingProperty[];
  readings: ReadonlyMap<string, Reading>;
  /** The product's reporting interval (ms): older values are greyed. */
  reportIntervalMs: number;
  /** Controls shown under a value (TileControls), when it has any. */
  tileExtra?: (property: ThingProperty) => ReactNode;
}

/** One card per property of the thing model, with the newest value the device reported. */
export function LiveValues({ properties, readings, reportIntervalMs, tileExtra }: LiveValuesProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const words = useValueWords();
  if (properties.length === 0) return <Empty description={t('iot.device.noProperties')} />;
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
              <FreshValue reading={reading} reportIntervalMs={reportIntervalMs}>
                {text ?? '—'}
              </FreshValue>
              <ReadingAge reading={reading} />
              {tileExtra?.(property)}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
