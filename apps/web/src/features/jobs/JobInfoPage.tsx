import { PlusOutlined } from '@ant-design/icons';
import { entityButtons, jobInfoEntity, type EntityDef } from '@shuili/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Permitted } from '../../core/Permitted';
import { usePermission } from '../../core/permission';
import type { FormMode } from '../../resource/form-values';
import type { ResourceRow } from '../../resource/resource-row';
import { ResourcePage } from '../../resource/ResourcePage';
import { JobFormDialog } from './JobFormDialog';
import { RunJobDialog } from './RunJobDialog';

const BUTTONS = entityButtons(jobInfoEntity);
const RUN_BUTTON = 'jobinfo:run';

/**
 * The generic list of jobs, whose add and edit open the job form instead of the generic one (its
 * sections, the live trigger times, the processor's parameter form); the same entity otherwise,
 * so list, delete, enable and export stay the generic calls.
 */
const listedEntity: EntityDef = {
  ...jobInfoEntity,
  operations: { ...jobInfoEntity.operations, add: false, update: false },
};

/** Spec /jobinfo: jobs, their form, run once, and their instances. */
export function JobInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayEdit = usePermission(BUTTONS.edit);
  const mayRun = usePermission(RUN_BUTTON);
  const [dialog, setDialog] = useState<{ mode: FormMode; row?: ResourceRow } | undefined>();
  const [running, setRunning] = useState<ResourceRow | undefined>();

  return (
    <>
      <ResourcePage
        entity={listedEntity}
        toolbarExtra={
          <Permitted code={BUTTONS.add}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ mode: 'create' })}
              data-testid="resource-add"
            >
              {t('resource.add')}
            </Button>
          </Permitted>
        }
        cellRenderers={{
          scheduleInfo: (value) =>
            value ? <code data-testid="job-schedule-info">{String(value)}</code> : null,
        }}
        rowActions={(row) => (
          <>
            {mayEdit && (
              <Button
                type="link"
                size="small"
                onClick={() => setDialog({ mode: 'edit', row })}
                data-testid="row-edit"
              >
                {t('resource.edit')}
              </Button>
            )}
            {mayRun && (
              <Button
                type="link"
                size="small"
                onClick={() => setRunning(row)}
                data-testid="job-row-run"
              >
                {t('jobs.run.button')}
              </Button>
            )}
            <Button
              type="link"
              size="small"
              onClick={() => void navigate(`/taskinstance?jobId=${row.id}`)}
              data-testid="job-row-instances"
            >
              {t('jobs.instances')}
            </Button>
          </>
        )}
      />
      <JobFormDialog mode={dialog?.mode} row={dialog?.row} onClose={() => setDialog(undefined)} />
      <RunJobDialog job={running} onClose={() => setRunning(undefined)} />
    </>
  );
}
