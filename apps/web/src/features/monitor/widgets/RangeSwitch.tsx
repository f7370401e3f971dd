import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RangeSwitchProps {
  /** Choices in hours. */
  hours: readonly number[];
  value: number;
  onChange: (hours: number) => void;
}

/** Last 24 h / 7 days / 30 days: the span a panel shows. */
export function RangeSwitch({ hours, value, onChange }: RangeSwitchProps) {
  const { t } = useTranslation();
  return (
    <Segmented<number>
      size="small"
      value={value}
      onChange={onChange}
      data-testid="panel-range"
      options={hours.map((span) => ({
        value: span,
        label:
          span % 24 === 0 && span > 24
            ? t('monitor.widget.lastDays', { days: span / 24 })
            : t('monitor.widget.lastHours', { hours: span }),
      }))}
    />
  );
}
