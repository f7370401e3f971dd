import { DeleteOutlined } from '@ant-design/icons';
import { DECISION_OPERATORS, type WorkflowNode } from '@shuili/contract';
import { Button, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

interface NodePanelProps {
  node: WorkflowNode;
  jobs: ReadonlyArray<{ id: string; name: string }>;
  onChange: (node: WorkflowNode) => void;
  onDelete: () => void;
}

/** The chosen node's settings: a job node's job and params, a decision's condition. */
export function NodePanel({ node, jobs, onChange, onDelete }: NodePanelProps) {
  const { t } = useTranslation();
  const set = (patch: Partial<WorkflowNode>) => onChange({ ...node, ...patch });
  const condition = node.condition ?? { key: '', operator: 'eq' as const, value: '' };
  return (
    <Form layout="vertical" size="small" data-testid="wf-node-panel">
      <Form.Item label={t('workflow.node.id')}>
        <Input value={node.id} disabled />
      </Form.Item>
      <Form.Item label={t('workflow.node.name')} required>
        <Input
          value={node.name}
          maxLength={128}
          onChange={(event) => set({ name: event.target.value })}
          data-testid="wf-node-name"
        />
      </Form.Item>
      {node.type === 'job' ? (
        <>
          <Form.Item label={t('workflow.node.job')} required>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              value={node.jobId}
              options={jobs.map((job) => ({ value: job.id, label: job.name }))}
              onChange={(jobId: string) => set({ jobId })}
              data-testid="wf-node-job"
            />
          </Form.Item>
          <Form.Item label={t('workflow.node.params')}>
            <Input.TextArea
              value={node.params ?? ''}
              rows={4}
              maxLength={20_000}
              onChange={(event) => set({ params: event.target.value || undefined })}
              data-testid="wf-node-params"
            />
          </Form.Item>
        </>
      ) : (
        <>
          <Form.Item label={t('workflow.node.conditionKey')} required>
            <Input
              value={condition.key}
              maxLength={128}
              placeholder={t('workflow.node.conditionKeyHint')}
              onChange={(event) => set({ condition: { ...condition, key: event.target.value } })}
              data-testid="wf-node-condition-key"
            />
          </Form.Item>
          <Form.Item label={t('workflow.node.operator')}>
            <Select
              value={condition.operator}
              options={DECISION_OPERATORS.map((operator) => ({
                value: operator,
                label: t(`workflow.operator.${operator}`),
              }))}
              onChange={(operator) => set({ condition: { ...condition, operator } })}
              data-testid="wf-node-operator"
            />
          </Form.Item>
          {condition.operator !== 'exists' && (
            <Form.Item label={t('workflow.node.conditionValue')}>
              <Input
                value={condition.value ?? ''}
                maxLength={256}
                onChange={(event) =>
                  set({ condition: { ...condition, value: event.target.value } })
                }
                data-testid="wf-node-condition-value"
              />
            </Form.Item>
          )}
        </>
      )}
      <Form.Item label={t('workflow.node.enable')}>
        <Switch
          checked={node.enable}
          onChange={(enable) => set({ enable })}
          data-testid="wf-node-enable"
        />
      </Form.Item>
      {node.type === 'job' && (
        <Form.Item label={t('workflow.node.skipWhenFailed')}>
          <Switch
            checked={node.skipWhenFailed}
            onChange={(skipWhenFailed) => set({ skipWhenFailed })}
            data-testid="wf-node-skip"
          />
        </Form.Item>
      )}
      <Button danger icon={<DeleteOutlined />} onClick={onDelete} data-testid="wf-node-delete">
        {t('workflow.editor.deleteNode')}
      </Button>
    </Form>
  );
}
