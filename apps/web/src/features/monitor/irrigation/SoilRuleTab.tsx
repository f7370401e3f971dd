import { HistoryOutlined } from '@ant-design/icons';
import { soilMoistureArea, soilMoistureRuleEntity, type AreaDef } from '@shuili/contract';
import { Button, Drawer, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { AreaDeviceSelect } from '../fertigation/AreaDeviceSelect';
import { ScheduleRuns } from './ScheduleRuns';

/**
 * Irrigation configuration: soil-moisture rules (a soil station's moisture at a depth opens and
 * closes a valve group; rain at the nearest weather station skips it). The station field offers
 * soil-moisture stations only; each row shows its evaluations and decisions.
 */
export function SoilRuleTab(_props: { area: AreaDef }) {
  const { t } = useTranslation();
  const [history, setHistory] = useState<{ id: string; name: string } | undefined>();
  return (
    <>
      <ResourcePage
        entity={soilMoistureRuleEntity}
        fieldControls={{ deviceId: <AreaDeviceSelect area={soilMoistureArea} /> }}
        rowActions={(row) => (
          <Tooltip title={t('monitor.irrigation.runs')}>
            <Button
              type="link"
              size="small"
              icon={<HistoryOutlined />}
              aria-label={t('monitor.irrigation.runs')}
              data-testid="soil-rule-runs"
              onClick={() => setHistory({ id: row.id, name: String(row.ruleName ?? row.id) })}
            />
          </Tooltip>
        )}
      />
      <Drawer
        open={history !== undefined}
        onClose={() => setHistory(undefined)}
        title={t('monitor.irrigation.runsOf', { name: history?.name ?? '' })}
        size="large"
        destroyOnHidden
      >
        {history && <ScheduleRuns kind="soilRule" id={history.id} />}
      </Drawer>
    </>
  );
}
