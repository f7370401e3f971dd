import { Card, Spin, Tabs } from 'antd';
import type { ParseKeys } from 'i18next';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { AREA_CONFIG_TABS } from '../configuration/area-config-tabs';
import { SettingsTab } from '../configuration/SettingsTab';
import { ThresholdTab } from '../configuration/ThresholdTab';
import { areaScreenTitleKey, type AreaScreenProps } from './area-screen-props';

/**
 * The monitor configuration of an area (spec: /pumpStation/pumpMonitorConfiguration ...): alarm
 * thresholds per factor as the area's alarm rules, its automation settings per device, and the
 * area's own tabs (AREA_CONFIG_TABS: valve groups and schedules, recipes and programs).
 */
export function AreaConfigurationPage({ area }: AreaScreenProps) {
  const { t } = useTranslation();
  if (!area) return null;
  const items = [
    {
      key: 'thresholds',
      label: t('monitor.config.thresholds'),
      children: <ThresholdTab area={area} />,
    },
    ...(area.settings.length > 0
      ? [
          {
            key: 'settings',
            label: t('monitor.config.settings'),
            children: <SettingsTab area={area} />,
          },
        ]
      : []),
    ...(AREA_CONFIG_TABS[area.code] ?? []).map((tab) => ({
      key: tab.key,
      label: t(tab.title as ParseKeys),
      children: (
        <Suspense fallback={<Spin />}>
          <tab.page area={area} />
        </Suspense>
      ),
    })),
  ];
  return (
    <Card
      key={area.code}
      title={t(areaScreenTitleKey(area, 'configuration') as ParseKeys)}
      data-testid="area-configuration"
      data-area={area.code}
    >
      <Tabs items={items} destroyOnHidden data-testid="configuration-tabs" />
    </Card>
  );
}
