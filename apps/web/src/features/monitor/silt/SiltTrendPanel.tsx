import { AREA_SETTING_CALLS, TOAST_MS } from '@shuili/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { PanelFrame } from '../widgets/PanelFrame';
import { RangeSwitch } from '../widgets/RangeSwitch';
import { TrendChart } from '../widgets/TrendChart';
import { useAreaSettings } from '../widgets/use-area-settings';
import { ALARM_COLOR } from '../widgets/widget-colors';
import type { AreaWidgetProps } from '../widgets/widget-types';

const KEYS = ['siltDepth', 'sedimentConcentration', 'turbidity'];

/**
 * The section's silt depth, sediment concentration and turbidity over days against its dredging
 * depth, which is set here (the silt area has no configuration screen of its own).
 */
export function SiltTrendPanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [hours, setHours] = useState(7 * 24);
  const dredging = Number(useAreaSettings(area, device.id).value('dredgingDepth'));
  // What the reader typed, until saved (undefined: the stored depth).
  const [typed, setTyped] = useState<number | null | undefined>();
  const edited = typed === undefined ? dredging : typed;
  const save = useMutation({
    mutationFn: (depth: number) =>
      http.post<unknown>(AREA_SETTING_CALLS.update, {
        data: { area: area.code, deviceId: device.id, values: { dredgingDepth: depth } },
      }),
    onSuccess: () => {
      setTyped(undefined);
      feedback.success(t('monitor.config.settingsSaved'), TOAST_MS.success / 1000);
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'areaSettings', area.code] });
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'areaSetting'] });
    },
  });
  return (
    <PanelFrame
      title={t('monitor.silt.trend')}
      testId="widget-siltTrend"
      extra={<RangeSwitch hours={[24, 7 * 24, 30 * 24]} value={hours} onChange={setHours} />}
    >
      <TrendChart
        key={hours}
        device={device}
        keys={KEYS}
        hours={hours}
        lines={
          Number.isFinite(dredging)
            ? [
                {
                  key: 'siltDepth',
                  value: dredging,
                  color: ALARM_COLOR.orange!,
                  name: t('monitor.silt.dredgingLine', { depth: dredging }),
                },
              ]
            : []
        }
        testId="silt-trend-chart"
      />
      <Flex gap={8} align="center" wrap style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">{t('monitor.silt.dredgingDepth')}</Typography.Text>
        <InputNumber<number>
          value={edited}
          onChange={setTyped}
          min={0.01}
          max={3}
          step={0.05}
          precision={2}
          suffix="m"
          style={{ width: 140 }}
          aria-label={t('monitor.silt.dredgingDepth')}
          data-testid="silt-dredging-input"
        />
        <Button
          onClick={() => edited !== null && save.mutate(edited)}
          loading={save.isPending}
          disabled={edited === null || edited === dredging}
          data-testid="silt-dredging-save"
        >
          {t('monitor.config.save')}
        </Button>
      </Flex>
    </PanelFrame>
  );
}
