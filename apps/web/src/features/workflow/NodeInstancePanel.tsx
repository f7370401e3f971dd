import { WF_NODE_STATE_OPTIONS, type WfNodeStateRow, type WorkflowNode } from '@shuili/contract';
import { Button, Descriptions, Popconfirm, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { useLabel } from '../../resource/field-label';
import { MARKABLE_NODE_STATES, nodeStateLook } from './node-states';
import { useWfInstanceAction } from './workflow-api';
import styles from './workflow.module.css';

interface NodeInstancePanelProps {
  wfInstanceId: string;
  node: WorkflowNode;
  row: WfNodeStateRow | undefined;
  onOpenJobInstance: (id: string) => void;
}

/** One node of a run: its state, times and result; its job instance; mark it successful. */
export function NodeInstancePanel({
  wfInstanceId,
  node,
  row,
  onOpenJobInstance,
}: NodeInstancePanelProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const action = useWfInstanceAction();
  const status = row?.status ?? 'WAITING';
  const option = WF_NODE_STATE_OPTIONS.find((candidate) => candidate.value === status);
  const markable = MARKABLE_NODE_STATES.includes(status);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="wf-node-instance">
      <Descriptions column={1} size="small" bordered title={node.name}>
        <Descriptions.Item label={t('workflow.node.id')}>{node.id}</Descriptions.Item>
        <Descriptions.Item label={t('workflow.status')}>
          <Tag color={nodeStateLook(status).tag} data-testid="wf-node-instance-state">
            {option ? label(option.label) : status}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('workflow.startTime')}>
          {formatDate(row?.startTime)}
        </Descriptions.Item>
        <Descriptions.Item label={t('workflow.finishedTime')}>
          {formatDate(row?.finishedTime)}
        </Descriptions.Item>
        <Descriptions.Item label={t('workflow.result')}>
          <pre className={styles.json}>{row?.result}</pre>
        </Descriptions.Item>
        {node.type === 'job' && (
          <Descriptions.Item label={t('workflow.nodeInstance.jobInstance')}>
            {row?.jobInstanceId ? (
              <Button
                type="link"
                size="small"
                onClick={() => onOpenJobInstance(row.jobInstanceId!)}
                data-testid="wf-node-instance-job"
              >
                {row.jobInstanceId}
              </Button>
            ) : (
              t('workflow.nodeInstance.noJobInstance')
            )}
          </Descriptions.Item>
        )}
      </Descriptions>
      {markable && (
        <Popconfirm
          title={t('workflow.nodeInstance.markConfirm')}
          okText={t('workflow.nodeInstance.markSuccess')}
          cancelText={t('workflow.cancel')}
          onConfirm={() =>
            action
              .mutateAsync({ action: 'markNodeSuccess', id: wfInstanceId, nodeId: node.id })
              .then(
                () => feedback.success(t('workflow.nodeInstance.marked'), 2),
                () => undefined, // the http client said why
              )
          }
        >
          <Button type="primary" data-testid="wf-node-mark-success">
            {t('workflow.nodeInstance.markSuccess')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
