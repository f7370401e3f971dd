import { CloseOutlined } from '@ant-design/icons';
import { JOB_ROUTES, workflowInstanceEntity, type WfInstanceState } from '@shuili/contract';
import { Button, Space, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ResourcePage } from '../../resource/ResourcePage';
import { WfInstanceActions } from './WfInstanceActions';

const ID = /^\d{1,18}$/;

/** Spec /dagworkflowinstance: workflow runs (of one workflow with ?workflowId=). */
export function DagWorkflowInstancePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const workflowId = params.get('workflowId') ?? '';
  const fixed = useMemo(() => (ID.test(workflowId) ? { workflowId } : undefined), [workflowId]);
  return (
    <ResourcePage
      entity={workflowInstanceEntity}
      fixedFilters={fixed}
      rowHref={(row) => `${JOB_ROUTES.workflowinstancedetails}?wfInstanceId=${row.id}`}
      toolbarExtra={
        fixed && (
          <Space>
            <Tag color="blue" data-testid="wf-instance-filter">
              {t('workflow.instance.ofWorkflow', { id: workflowId })}
            </Tag>
            <Button
              size="small"
              icon={<CloseOutlined />}
              onClick={() => setParams({})}
              data-testid="wf-instance-filter-clear"
            >
              {t('workflow.instance.allWorkflows')}
            </Button>
          </Space>
        )
      }
      rowActions={(row) => (
        <WfInstanceActions
          id={String(row.id)}
          status={row.status as WfInstanceState | undefined}
          compact
        />
      )}
    />
  );
}
