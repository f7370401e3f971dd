import { CaretRightOutlined, HistoryOutlined, StopOutlined } from '@ant-design/icons';
import { fertigationProgramEntity, TOAST_MS, type AreaDef } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../core/permission';
import { feedback } from '../../../lib/feedback';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';
import { AreaDeviceSelect } from './AreaDeviceSelect';
import { startProgram, stopProgram } from './fertigation-api';
import { FertigationRuns } from './FertigationRuns';

/**
 * Water and fertilizer configuration: the programs (machine, group, recipe, water before,
 * fertilizer, water after, optional start time and days), each with run now, stop and its run
 * history. The machine field offers the area's fertigation machines only.
 */
export function FertigationProgramTab({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [history, setHistory] = useState<{ id: string; name: string } | undefined>();
  const mayRun = usePermission('fertigationProgram:edit');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['monitor', 'fertigationRuns'] });
  const nameOf = (row: ResourceRow) => String(row.programName ?? row.id);

  const act = async (row: ResourceRow, action: 'start' | 'stop') => {
    const run = await (action === 'start' ? startProgram(row.id) : stopProgram(row.id)).catch(
      () => undefined,
    );
    if (!run) return;
    feedback.success(
      t(action === 'start' ? 'monitor.fertigation.started' : 'monitor.fertigation.stopped', {
        program: nameOf(row),
      }),
      TOAST_MS.success / 1000,
    );
    await refresh();
    setHistory({ id: row.id, name: nameOf(row) });
  };

  return (
    <>
      <ResourcePage
        entity={fertigationProgramEntity}
        fieldControls={{ deviceId: <AreaDeviceSelect area={area} /> }}
        rowActions={(row) => (
          <Space size={0}>
            {mayRun && (
              <>
                <Tooltip title={t('monitor.fertigation.start')}>
                  <Button
                    type="link"
                    size="small"
                    icon={<CaretRightOutlined />}
                    aria-label={t('monitor.fertigation.start')}
                    data-testid="program-start"
                    onClick={() => void act(row, 'start')}
                  />
                </Tooltip>
                <Tooltip title={t('monitor.fertigation.stop')}>
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<StopOutlined />}
                    aria-label={t('monitor.fertigation.stop')}
                    data-testid="program-stop"
                    onClick={() => void act(row, 'stop')}
                  />
                </Tooltip>
              </>
            )}
            <Tooltip title={t('monitor.fertigation.runs')}>
              <Button
                type="link"
                size="small"
                icon={<HistoryOutlined />}
                aria-label={t('monitor.fertigation.runs')}
                data-testid="program-runs"
                onClick={() => setHistory({ id: row.id, name: nameOf(row) })}
              />
            </Tooltip>
          </Space>
        )}
      />
      <FertigationRuns program={history} onClose={() => setHistory(undefined)} />
    </>
  );
}
