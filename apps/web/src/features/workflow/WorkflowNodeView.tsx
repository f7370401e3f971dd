import { BranchesOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { WF_NODE_STATE_OPTIONS } from '@shuili/contract';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Tag } from 'antd';
import { createContext, memo, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../resource/field-label';
import type { WfFlowNode } from './dag-flow';
import { nodeStateLook } from './node-states';
import styles from './workflow.module.css';

/** The tenant's job names by id, so a job node shows its job's name. */
export const JobNamesContext = createContext<ReadonlyMap<string, string>>(new Map());

/** One node of a workflow, in the editor (plain) or in a run (coloured by its state). */
export const WorkflowNodeView = memo(function WorkflowNodeView({
  data,
  selected,
}: NodeProps<WfFlowNode>) {
  const { t } = useTranslation();
  const label = useLabel();
  const jobNames = useContext(JobNamesContext);
  const { node, state, problem } = data;
  const look = state ? nodeStateLook(state) : undefined;
  const decision = node.type === 'decision';
  const stateOption = state && WF_NODE_STATE_OPTIONS.find((option) => option.value === state);
  const condition = node.condition;
  const className = [
    styles.node,
    decision && styles.decision,
    selected && styles.selected,
    problem && styles.problem,
    look?.animated && styles.running,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={className}
      style={
        look && {
          background: look.background,
          borderColor: look.border,
          borderStyle: look.borderStyle,
          color: look.color,
        }
      }
      data-testid="wf-node"
      data-node-id={node.id}
      data-state={state}
      data-problem={problem ? 'true' : undefined}
    >
      <Handle type="target" position={Position.Left} />
      <div className={styles.title} title={node.name}>
        {decision ? <BranchesOutlined /> : <ThunderboltOutlined />} {node.name}
      </div>
      <div className={styles.sub}>
        {decision
          ? condition &&
            `${condition.key} ${t(`workflow.operator.${condition.operator}`)} ${
              condition.operator === 'exists' ? '' : (condition.value ?? '')
            }`
          : node.jobId
            ? (jobNames.get(node.jobId) ?? `#${node.jobId}`)
            : t('workflow.node.noJob')}
      </div>
      <div className={styles.tags}>
        {stateOption && (
          <Tag color={look?.tag} data-testid="wf-node-state">
            {label(stateOption.label)}
          </Tag>
        )}
        {!node.enable && <Tag>{t('workflow.node.disabled')}</Tag>}
        {node.skipWhenFailed && <Tag>{t('workflow.node.skipWhenFailed')}</Tag>}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

export const NODE_TYPES = { wfNode: WorkflowNodeView };
