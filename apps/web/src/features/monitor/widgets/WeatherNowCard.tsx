import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { compassPointOf } from './compass';
import { numberOf } from './device-values';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';

/**
 * Current conditions at a weather station: temperature, humidity, wind speed with an arrow
 * showing where the wind blows (it comes from the reported direction), rain and radiation.
 */
export function WeatherNowCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const direction = numberOf(device, 'windDirection');
  const cell = (key: string) => (
    <Col span={12} key={key}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {name(key)}
      </Typography.Text>
      <div style={{ fontSize: 16 }} data-testid={`weather-${key}`}>
        {text(key)}
      </div>
    </Col>
  );
  return (
    <div data-testid="widget-weatherNow">
      <Row gutter={[8, 6]}>
        {cell('airTemperature')}
        {cell('airHumidity')}
        <Col span={12}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {name('windSpeed')}
          </Typography.Text>
          <div style={{ fontSize: 16, display: 'flex', alignItems: 'center', gap: 6 }}>
            {direction !== undefined && (
              <svg
                width={20}
                height={20}
                viewBox="-10 -10 20 20"
                role="img"
                aria-label={t('monitor.widget.windFrom', {
                  point: t(`monitor.widget.compass.${compassPointOf(direction)}`),
                })}
                data-testid="weather-wind-arrow"
                data-direction={direction}
              >
                {/* Drawn pointing north, turned to where the wind goes (from + 180°). */}
                <path
                  d="M0,-9 L5,5 L0,2 L-5,5 Z"
                  fill="#1677ff"
                  transform={`rotate(${(direction + 180) % 360})`}
                />
              </svg>
            )}
            <span data-testid="weather-windSpeed">{text('windSpeed')}</span>
            {direction !== undefined && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`monitor.widget.compass.${compassPointOf(direction)}`)}
              </Typography.Text>
            )}
          </div>
        </Col>
        {cell('rainfall')}
        {cell('solarRadiation')}
        {cell('airPressure')}
      </Row>
    </div>
  );
}
