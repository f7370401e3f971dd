import { CloseOutlined } from '@ant-design/icons';
import { JOB_ROUTES, workflowNodeInstanceEntity } from '@shuili/contract';
import { Button, Space, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ResourcePage } from '../../resource/ResourcePage';
import { InstanceDetailDrawer } from '../jobs/InstanceDetailDrawer';

const ID = /^\d{1,18}$/;

/** Spec /dagtaskinstance: the nodes of workflow runs (of one run with ?wfInstanceId=). */
export function DagTaskInstancePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const wfInstanceId = params.get('wfInstanceId') ?? '';
  const fixed = useMemo(
    () => (ID.test(wfInstanceId) ? { wfInstanceId } : undefined),
    [wfInstanceId],
  );
  const [jobInstance, setJobInstance] = useState<string>();
  return (
    <>
      <ResourcePage
        entity={workflowNodeInstanceEntity}
        fixedFilters={fixed}
        toolbarExtra={
          fixed && (
            <Space>
              <Tag color="blue" data-testid="wf-node-filter">
                {t('workflow.nodeInstance.ofInstance', { id: wfInstanceId })}
              </Tag>
              <Button
                size="small"
                icon={<CloseOutlined />}
                onClick={() => setParams({})}
                data-testid="wf-node-filter-clear"
              >
                {t('workflow.nodeInstance.allInstances')}
              </Button>
            </Space>
          )
        }
        cellRenderers={{
          wfInstanceId: (value) =>
            value ? (
              <Link to={`${JOB_ROUTES.workflowinstancedetails}?wfInstanceId=${String(value)}`}>
                {String(value)}
              </Link>
            ) : null,
          jobInstanceId: (value) =>
            value ? (
              <Button
                type="link"
                size="small"
                onClick={() => setJobInstance(String(value))}
                data-testid="wf-node-job-instance"
              >
                {String(value)}
              </Button>
            ) : null,
        }}
      />
      <InstanceDetailDrawer instanceId={jobInstance} onClose={() => setJobInstance(undefined)} />
    </>
  );
}
