import { alarmRecordEntity, iotDevicePageRoute } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ResourcePage, type CellRenderer } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';
import type { FixedFilters } from '../../../resource/search-params';
import { resourceKey } from '../../../resource/use-resource';
import { AcknowledgeDialog } from '../alarm/AcknowledgeDialog';
import { AlarmAckTag, AlarmLevelTag, AlarmStateTag } from '../alarm/AlarmTags';
import { PropertyName } from '../alarm-rule/PropertyName';

const CELLS: Readonly<Record<string, CellRenderer>> = {
  level: (value) => <AlarmLevelTag level={String(value ?? '')} />,
  propertyKey: (value, row) => <PropertyName propertyKey={value} row={row} />,
  state: (value, row) => <AlarmStateTag state={String(value ?? '')} clearedAt={row.clearedAt} />,
  acknowledgedBy: (value, row) => (
    <AlarmAckTag by={value} at={row.acknowledgedAt} comment={row.ackComment} />
  ),
  deviceId: (value, row) =>
    value ? (
      <Link to={iotDevicePageRoute(String(value))}>{String(row.deviceIdLabel ?? value)}</Link>
    ) : null,
};

export interface AlarmRecordPageProps {
  title?: ReactNode;
  /** Filters the screen fixes: an area's warnings are its device kinds' (deviceKind=a,b). */
  fixedFilters?: FixedFilters;
}

/**
 * Warning information: alarms raised, cleared and acknowledged, level and state as coloured
 * tags; one alarm or the checked ones are acknowledged with a comment.
 */
export function AlarmRecordPage({ title, fixedFilters }: AlarmRecordPageProps = {}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [acking, setAcking] = useState<{ ids: string[]; done?: () => void }>({ ids: [] });
  const unacknowledged = (rows: ResourceRow[]) =>
    rows.filter((row) => !row.acknowledgedAt).map((row) => row.id);

  return (
    <>
      <ResourcePage
        entity={alarmRecordEntity}
        title={title}
        fixedFilters={fixedFilters}
        cellRenderers={CELLS}
        rowActions={(row) =>
          row.acknowledgedAt ? null : (
            <Button
              type="link"
              size="small"
              onClick={() => setAcking({ ids: [row.id] })}
              data-testid="alarm-ack-row"
            >
              {t('iot.alarm.acknowledge')}
            </Button>
          )
        }
        toolbarExtra={(selected, clearSelection) => {
          const ids = unacknowledged(selected);
          return (
            <Button
              disabled={ids.length === 0}
              onClick={() => setAcking({ ids, done: clearSelection })}
              data-testid="alarm-ack-selected"
            >
              {t('iot.alarm.acknowledgeSelected', { count: ids.length })}
            </Button>
          );
        }}
      />
      <AcknowledgeDialog
        ids={acking.ids}
        onClose={() => setAcking({ ids: [] })}
        onDone={() => {
          acking.done?.();
          setAcking({ ids: [] });
          void queryClient.invalidateQueries({ queryKey: resourceKey(alarmRecordEntity) });
        }}
      />
    </>
  );
}
