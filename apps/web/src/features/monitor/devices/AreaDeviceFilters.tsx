import { PROJECT_TARGET, type ZoneNode } from '@shuili/contract';
import { Button, Flex, Input, Select, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useZoneStore } from '../../admin-extra/zone-store';
import type { LabeledValue } from '../../../resource/form-values';
import { RefSelect } from '../../../resource/RefSelect';
import type { AreaDeviceFilterValues } from './area-device-filters';
import styles from './AreaDeviceFilters.module.css';

interface ZoneChoice {
  value: string;
  title: string;
  children: ZoneChoice[];
}

/** The user's zones as choices: a zone holding others is a choice too (it takes them all). */
function zoneChoices(nodes: readonly ZoneNode[]): ZoneChoice[] {
  return nodes.map((node) => ({
    value: node.id,
    title: node.zoneName,
    children: zoneChoices(node.children ?? []),
  }));
}

export interface AreaDeviceFiltersProps {
  value: AreaDeviceFilterValues;
  onChange: (value: AreaDeviceFilterValues) => void;
}

/**
 * The area screens' filters: zone (the user's zones, from the zone store the route loaded),
 * project, health, connection and a search of device number or name. Each change applies at
 * once; the search when the reader presses Enter or the search button.
 */
export function AreaDeviceFilters({ value, onChange }: AreaDeviceFiltersProps) {
  const { t } = useTranslation();
  const zoneList = useZoneStore((state) => state.zoneList);
  const zones = useMemo(() => zoneChoices(zoneList), [zoneList]);
  const set = (patch: Partial<AreaDeviceFilterValues>) => onChange({ ...value, ...patch });
  // The search box's text until it is applied; a reset empties it.
  const [text, setText] = useState(value.text ?? '');
  const [applied, setApplied] = useState(value.text);
  if (applied !== value.text) {
    setApplied(value.text);
    setText(value.text ?? '');
  }
  return (
    <Flex wrap gap={8} data-testid="area-filters">
      <TreeSelect
        value={value.zoneId}
        onChange={(zoneId?: string) => set({ zoneId: zoneId ?? undefined })}
        treeData={zones}
        treeDefaultExpandAll
        allowClear
        showSearch={{ treeNodeFilterProp: 'title' }}
        placeholder={t('monitor.filters.zone')}
        popupMatchSelectWidth={false}
        style={{ width: 180 }}
        data-testid="area-filter-zone"
      />
      <div className={styles.project} data-testid="area-filter-project">
        <RefSelect
          target={PROJECT_TARGET}
          value={value.project ?? null}
          onChange={(project) =>
            set({ project: (project as LabeledValue | undefined) ?? undefined })
          }
          allowClear
          placeholder={t('monitor.filters.project')}
        />
      </div>
      <Select
        value={value.status}
        onChange={(status?: 'normal' | 'fault') => set({ status })}
        allowClear
        placeholder={t('monitor.filters.health')}
        options={[
          { value: 'normal', label: t('iot.device.normal') },
          { value: 'fault', label: t('iot.device.healthFault') },
        ]}
        style={{ width: 130 }}
        data-testid="area-filter-health"
      />
      <Select
        value={value.online}
        onChange={(online?: 'true' | 'false') => set({ online })}
        allowClear
        placeholder={t('monitor.filters.online')}
        options={[
          { value: 'true', label: t('iot.device.isOnline') },
          { value: 'false', label: t('iot.device.isOffline') },
        ]}
        style={{ width: 130 }}
        data-testid="area-filter-online"
      />
      <Input.Search
        value={text}
        onChange={(event) => setText(event.target.value)}
        onSearch={(search) => set({ text: search.trim() || undefined })}
        allowClear
        placeholder={t('monitor.filters.text')}
        style={{ width: 220 }}
        data-testid="area-filter-text"
      />
      <Button onClick={() => onChange({})} data-testid="area-filter-reset">
        {t('monitor.filters.reset')}
      </Button>
    </Flex>
  );
}
