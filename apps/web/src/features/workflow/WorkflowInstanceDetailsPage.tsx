import {
  JOB_ROUTES,
  WF_INSTANCE_STATE_OPTIONS,
  WF_NODE_STATE_OPTIONS,
  WF_NODE_STATES,
  type WfInstanceDetail,
  type WfNodeState,
} from '@shuili/contract';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Card, Col, Descriptions, Empty, Result, Row, Space, Spin, Tag } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../lib/format';
import { useLabel } from '../../resource/field-label';
import { dagToFlow, needsLayout, type WfFlowEdge, type WfFlowNode } from './dag-flow';
import { layoutNodes } from './dag-layout';
import { InstanceDetailDrawer } from '../jobs/InstanceDetailDrawer';
import { NodeInstancePanel } from './NodeInstancePanel';
import { isLiveInstance, nodeStateLook, WF_INSTANCE_TAG } from './node-states';
import { WfInstanceActions } from './WfInstanceActions';
import { useJobs, useWfInstanceDetail } from './workflow-api';
import { JobNamesContext, NODE_TYPES } from './WorkflowNodeView';
import styles from './workflow.module.css';

const FIT = { padding: 0.2, maxZoom: 1 };

/** Spec /workflowinstancedetails?wfInstanceId=: a run's DAG coloured by node state, live. */
export function WorkflowInstanceDetailsPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const id = params.get('wfInstanceId') ?? '';
  if (!/^\d{1,18}$/.test(id))
    return <Result status="warning" title={t('workflow.instance.noInstance')} />;
  return (
    <ReactFlowProvider>
      <InstanceDetails id={id} />
    </ReactFlowProvider>
  );
}

/** Pretty JSON of a text that holds JSON, else the text as it is. */
function pretty(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

function InstanceDetails({ id }: { id: string }) {
  const { t } = useTranslation();
  const label = useLabel();
  const flow = useReactFlow();
  const detail = useWfInstanceDetail(id);
  const data = detail.data;
  const jobs = useJobs('');
  const jobNames = useMemo(
    () => new Map((jobs.data?.list ?? []).map((row) => [String(row.id), String(row.jobName)])),
    [jobs.data],
  );
  const [chosen, setChosen] = useState<string>();
  const [jobInstance, setJobInstance] = useState<string>();

  const drawn = useMemo(
    () => (data ? draw(data, (branch) => t(`workflow.branch.${branch}`)) : undefined),
    [data, t],
  );

  // Fit the drawing once it first arrives; later polls only recolour it.
  const fitted = useRef(false);
  useEffect(() => {
    if (!drawn || fitted.current) return;
    fitted.current = true;
    window.requestAnimationFrame(() => void flow.fitView(FIT));
  }, [drawn, flow]);

  if (detail.isError) return <Result status="warning" title={t('workflow.instance.loadFailed')} />;
  if (!data || !drawn) return <Spin />;

  const live = isLiveInstance(data.status);
  const status = WF_INSTANCE_STATE_OPTIONS.find((option) => option.value === data.status);
  const chosenNode = data.dag.nodes.find((node) => node.id === chosen);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="wf-instance-details">
      <Card
        title={t('workflow.instance.title', { name: data.wfName, id: data.id })}
        extra={
          <Space>
            {live && (
              <Tag color="processing" data-testid="wf-instance-live">
                {t('workflow.instance.live')}
              </Tag>
            )}
            <WfInstanceActions id={data.id} status={data.status} />
          </Space>
        }
      >
        <div className={styles.legend}>
          {WF_NODE_STATES.map((state) => (
            <span key={state}>
              <Legend state={state} />
              {label(WF_NODE_STATE_OPTIONS.find((option) => option.value === state)!.label)}
            </span>
          ))}
        </div>
        <Row gutter={16}>
          <Col xs={24} xl={chosenNode ? 16 : 24}>
            <JobNamesContext.Provider value={jobNames}>
              <div className={styles.runCanvas} data-testid="wf-run-canvas">
                <ReactFlow<WfFlowNode, WfFlowEdge>
                  nodes={drawn.nodes.map((node) =>
                    node.id === chosen ? { ...node, selected: true } : node,
                  )}
                  edges={drawn.edges}
                  nodeTypes={NODE_TYPES}
                  nodesDraggable={false}
                  nodesConnectable={false}
                  edgesFocusable={false}
                  defaultEdgeOptions={{ markerEnd: { type: MarkerType.ArrowClosed } }}
                  onNodeClick={(_event, node) => setChosen(node.id)}
                  onPaneClick={() => setChosen(undefined)}
                  fitView
                  fitViewOptions={FIT}
                >
                  <Background />
                  <Controls showInteractive={false} />
                </ReactFlow>
              </div>
            </JobNamesContext.Provider>
          </Col>
          {chosenNode && (
            <Col xs={24} xl={8}>
              <NodeInstancePanel
                wfInstanceId={data.id}
                node={chosenNode}
                row={data.nodes.find((row) => row.nodeId === chosenNode.id)}
                onOpenJobInstance={setJobInstance}
              />
            </Col>
          )}
        </Row>
      </Card>
      <Card title={t('workflow.instance.fields')}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label={t('workflow.instance.workflow')}>
            <Link to={`${JOB_ROUTES.dagworkflowinstance}?workflowId=${data.workflowId}`}>
              {data.wfName}
            </Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.status')}>
            <Tag
              color={WF_INSTANCE_TAG[data.status]}
              data-testid="wf-instance-status"
              data-status={data.status}
            >
              {status ? label(status.label) : data.status}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.instance.expectedTriggerTime')}>
            {formatDate(data.expectedTriggerTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.startTime')}>
            {formatDate(data.startTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.finishedTime')}>
            {formatDate(data.finishedTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.instance.nodes')}>
            <Link to={`${JOB_ROUTES.dagtaskinstance}?wfInstanceId=${data.id}`}>
              {t('workflow.instance.nodeList', { count: data.dag.nodes.length })}
            </Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.run.initParams')} span={2}>
            <pre className={styles.json}>{pretty(data.initParams)}</pre>
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.instance.context')} span={2}>
            {Object.keys(data.context ?? {}).length > 0 ? (
              <pre className={styles.json} data-testid="wf-instance-context">
                {pretty(data.context)}
              </pre>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('workflow.result')} span={2}>
            <pre className={styles.json}>{pretty(data.result)}</pre>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <InstanceDetailDrawer instanceId={jobInstance} onClose={() => setJobInstance(undefined)} />
    </Space>
  );
}

/** The run's DAG with each node's state (laid out when saved without positions). */
function draw(data: WfInstanceDetail, branchLabel: (branch: 'true' | 'false') => string) {
  const states = new Map<string, WfNodeState>(data.nodes.map((row) => [row.nodeId, row.status]));
  const drawn = dagToFlow(data.dag, branchLabel, states);
  return needsLayout(data.dag) ? { ...drawn, nodes: layoutNodes(drawn.nodes, drawn.edges) } : drawn;
}

function Legend({ state }: { state: WfNodeState }) {
  const look = nodeStateLook(state);
  return (
    <span
      className={styles.legendSwatch}
      style={{
        background: look.background,
        borderColor: look.border,
        borderStyle: look.borderStyle,
      }}
    />
  );
}
