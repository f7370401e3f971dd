import { HistoryOutlined, StopOutlined } from '@ant-design/icons';
import { rotationScheduleEntity, TOAST_MS, type AreaDef } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../core/permission';
import { feedback } from '../../../lib/feedback';
import { ResourcePage } from '../../../resource/ResourcePage';
import { stopRotation } from './irrigation-api';
import { RotationStepsInput } from './RotationStepsInput';
import { ScheduleRuns } from './ScheduleRuns';

/**
 * Irrigation configuration: rotation schedules (groups in order with their minutes, a start
 * time and days in the tenant's time zone). Each row stops a rotation under way and shows its
 * runs.
 */
export function RotationScheduleTab(_props: { area: AreaDef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayStop = usePermission('rotationSchedule:edit');
  const [history, setHistory] = useState<{ id: string; name: string } | undefined>();
  return (
    <>
      <ResourcePage
        entity={rotationScheduleEntity}
        fieldControls={{ steps: <RotationStepsInput /> }}
        rowActions={(row) => {
          const name = String(row.scheduleName ?? row.id);
          return (
            <Space size={0}>
              {mayStop && (
                <Tooltip title={t('monitor.irrigation.stopRotation')}>
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<StopOutlined />}
                    aria-label={t('monitor.irrigation.stopRotation')}
                    data-testid="rotation-stop"
                    onClick={async () => {
                      const done = await stopRotation(row.id).catch(() => undefined);
                      if (!done) return;
                      feedback.success(
                        t('monitor.irrigation.rotationStopped', { schedule: name }),
                        TOAST_MS.success / 1000,
                      );
                      await queryClient.invalidateQueries({
                        queryKey: ['monitor', 'scheduleRuns'],
                      });
                    }}
                  />
                </Tooltip>
              )}
              <Tooltip title={t('monitor.irrigation.runs')}>
                <Button
                  type="link"
                  size="small"
                  icon={<HistoryOutlined />}
                  aria-label={t('monitor.irrigation.runs')}
                  data-testid="rotation-runs"
                  onClick={() => setHistory({ id: row.id, name })}
                />
              </Tooltip>
            </Space>
          );
        }}
      />
      <Drawer
        open={history !== undefined}
        onClose={() => setHistory(undefined)}
        title={t('monitor.irrigation.runsOf', { name: history?.name ?? '' })}
        size="large"
        destroyOnHidden
      >
        {history && <ScheduleRuns kind="rotation" id={history.id} />}
      </Drawer>
    </>
  );
}
