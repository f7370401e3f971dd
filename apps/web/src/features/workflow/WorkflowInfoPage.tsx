import { JOB_ROUTES, workflowInfoEntity } from '@shuili/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../resource/ResourcePage';
import { RunWorkflowDialog } from './RunWorkflowDialog';

/** Spec /workflowinfo: the tenant's workflows; each opens its DAG, runs once, lists its runs. */
export function WorkflowInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [running, setRunning] = useState<{ id: string; name: string; initParams: string }>();
  return (
    <>
      <ResourcePage
        entity={workflowInfoEntity}
        // An API-triggered workflow has no time expression.
        hiddenFields={(values) => (values.timeExpressionType === 'API' ? ['timeExpression'] : [])}
        rowActions={(row) => (
          <>
            <Button
              type="link"
              size="small"
              onClick={() => void navigate(`${JOB_ROUTES.workfloweditor}?workflowId=${row.id}`)}
              data-testid="wf-row-edit-dag"
            >
              {t('workflow.list.editDag')}
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() =>
                setRunning({
                  id: String(row.id),
                  name: String(row.wfName ?? row.id),
                  initParams: typeof row.initParams === 'string' ? row.initParams : '',
                })
              }
              data-testid="wf-row-run"
            >
              {t('workflow.list.runOnce')}
            </Button>
            <Button
              type="link"
              size="small"
              onClick={() =>
                void navigate(`${JOB_ROUTES.dagworkflowinstance}?workflowId=${row.id}`)
              }
              data-testid="wf-row-instances"
            >
              {t('workflow.list.instances')}
            </Button>
          </>
        )}
      />
      <RunWorkflowDialog workflow={running} onClose={() => setRunning(undefined)} />
    </>
  );
}
