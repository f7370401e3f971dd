import { ApartmentOutlined, ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import {
  dagProblem,
  JOB_ROUTES,
  TOAST_MS,
  workflowDagSchema,
  type WorkflowDag,
  type WorkflowNode,
} from '@shuili/contract';
import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Alert, Button, Card, Empty, Radio, Result, Space, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HttpError } from '../../lib/http';
import { feedback } from '../../lib/feedback';
import {
  branchOfNewEdge,
  dagToFlow,
  flowToDag,
  needsLayout,
  nextNodeId,
  nodesNamedIn,
  toFlowEdge,
  WF_NODE_TYPE,
  type WfFlowEdge,
  type WfFlowNode,
} from './dag-flow';
import { layoutNodes, NODE_WIDTH } from './dag-layout';
import { EditorPalette, PALETTE_MIME, type PaletteItem } from './EditorPalette';
import { NodePanel } from './NodePanel';
import { useLeaveGuard } from './use-leave-guard';
import { saveWorkflowDag, useJobs, useWorkflowDag } from './workflow-api';
import { JobNamesContext, NODE_TYPES } from './WorkflowNodeView';
import styles from './workflow.module.css';

/** Fitting the drawing to the canvas: a small DAG is not blown up past its natural size. */
const FIT = { padding: 0.2, maxZoom: 1 };

/** Spec /workfloweditor?workflowId=: the workflow's DAG drawn, edited and saved. */
export function WorkflowEditorPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const workflowId = params.get('workflowId') ?? undefined;
  if (!workflowId || !/^\d{1,18}$/.test(workflowId))
    return <Result status="warning" title={t('workflow.editor.noWorkflow')} />;
  return (
    <ReactFlowProvider>
      <WorkflowEditor workflowId={workflowId} />
    </ReactFlowProvider>
  );
}

function WorkflowEditor({ workflowId }: { workflowId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flow = useReactFlow<WfFlowNode, WfFlowEdge>();
  const dagQuery = useWorkflowDag(workflowId);
  const [search, setSearch] = useState('');
  const jobsQuery = useJobs(search);
  const jobs = useMemo(
    () =>
      (jobsQuery.data?.list ?? []).map((row) => ({
        id: String(row.id),
        name: String(row.jobName ?? row.id),
      })),
    [jobsQuery.data],
  );
  // The nodes' job names: the palette's search narrows the list, never the names drawn.
  const allJobs = useJobs('');
  const jobNames = useMemo(
    () =>
      new Map(
        [...(allJobs.data?.list ?? []), ...(jobsQuery.data?.list ?? [])].map((row) => [
          String(row.id),
          String(row.jobName ?? row.id),
        ]),
      ),
    [allJobs.data, jobsQuery.data],
  );

  const [nodes, setNodes, onNodesChange] = useNodesState<WfFlowNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<WfFlowEdge>([]);
  const [dirty, setDirty] = useState(false);
  const [refusal, setRefusal] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  useLeaveGuard(dirty, rootRef, t('workflow.editor.leaveConfirm'));

  const branchLabel = useCallback(
    (branch: 'true' | 'false') => t(`workflow.branch.${branch}`),
    [t],
  );

  // The saved drawing, once loaded (a DAG written through the API is laid out first).
  const loaded = useRef(false);
  useEffect(() => {
    if (loaded.current || !dagQuery.isSuccess) return;
    loaded.current = true;
    const dag: WorkflowDag = dagQuery.data ?? { nodes: [], edges: [] };
    const drawn = dagToFlow(dag, branchLabel);
    setNodes(needsLayout(dag) ? layoutNodes(drawn.nodes, drawn.edges) : drawn.nodes);
    setEdges(drawn.edges);
    window.requestAnimationFrame(() => void flow.fitView(FIT));
  }, [dagQuery.isSuccess, dagQuery.data, branchLabel, setNodes, setEdges, flow]);

  const selectedNode = nodes.find((node) => node.selected);
  const selectedEdge = edges.find((edge) => edge.selected);
  const selectedEdgeSource = selectedEdge && nodes.find((node) => node.id === selectedEdge.source);

  const markProblem = (ids: readonly string[]) =>
    setNodes((current) =>
      current.map((node) => {
        const problem = ids.includes(node.id);
        return !!node.data.problem === problem
          ? node
          : { ...node, data: { ...node.data, problem } };
      }),
    );

  const changed = () => {
    setDirty(true);
    if (refusal) {
      setRefusal(undefined);
      markProblem([]);
    }
  };

  const handleNodesChange = (changes: NodeChange<WfFlowNode>[]) => {
    onNodesChange(changes);
    if (changes.some((change) => change.type !== 'select' && change.type !== 'dimensions'))
      changed();
  };
  const handleEdgesChange = (changes: EdgeChange<WfFlowEdge>[]) => {
    onEdgesChange(changes);
    if (changes.some((change) => change.type !== 'select')) changed();
  };

  const addNode = (item: PaletteItem, at?: { x: number; y: number }) => {
    const id = nextNodeId(nodes.map((node) => node.id));
    const node: WorkflowNode =
      item.type === 'job'
        ? {
            id,
            type: 'job',
            name: item.name,
            jobId: item.jobId,
            enable: true,
            skipWhenFailed: false,
          }
        : {
            id,
            type: 'decision',
            name: t('workflow.editor.decision'),
            condition: { key: '', operator: 'eq', value: '' },
            enable: true,
            skipWhenFailed: false,
          };
    // A click adds it right of the drawing; a drop puts it where it fell.
    const right = nodes.reduce((max, other) => Math.max(max, other.position.x), -NODE_WIDTH - 80);
    const position = at ?? { x: right + NODE_WIDTH + 80, y: 40 + (nodes.length % 4) * 90 };
    setNodes((current) => [
      ...current.map((other) => ({ ...other, selected: false })),
      { id, type: WF_NODE_TYPE, position, data: { node }, selected: true },
    ]);
    changed();
  };

  const onDrop = (event: DragEvent) => {
    const payload = event.dataTransfer.getData(PALETTE_MIME);
    if (!payload) return;
    event.preventDefault();
    const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    addNode(JSON.parse(payload) as PaletteItem, { x: at.x - NODE_WIDTH / 2, y: at.y - 20 });
  };

  const isValidConnection = (connection: Connection | WfFlowEdge) =>
    connection.source !== connection.target &&
    !edges.some((edge) => edge.source === connection.source && edge.target === connection.target);

  const onConnect = (connection: Connection) => {
    const source = nodes.find((node) => node.id === connection.source);
    // A decision's edge is selected, so its panel (true / false) shows at once.
    const branch = branchOfNewEdge(source, edges);
    const edge = toFlowEdge(
      { from: connection.source, to: connection.target, branch },
      branchLabel,
    );
    setEdges((current) => [
      ...current.map((other) => ({ ...other, selected: false })),
      { ...edge, selected: branch !== undefined },
    ]);
    changed();
  };

  const updateNode = (node: WorkflowNode) => {
    setNodes((current) =>
      current.map((other) =>
        other.id === node.id ? { ...other, data: { ...other.data, node } } : other,
      ),
    );
    changed();
  };

  const deleteNode = (id: string) => {
    setNodes((current) => current.filter((node) => node.id !== id));
    setEdges((current) => current.filter((edge) => edge.source !== id && edge.target !== id));
    changed();
  };

  const setBranch = (edge: WfFlowEdge, branch: 'true' | 'false') => {
    const next = toFlowEdge({ from: edge.source, to: edge.target, branch }, branchLabel);
    setEdges((current) =>
      current.map((other) => (other.id === edge.id ? { ...next, selected: true } : other)),
    );
    changed();
  };

  const autoLayout = () => {
    setNodes((current) => layoutNodes(current, edges));
    changed();
    window.requestAnimationFrame(() => void flow.fitView(FIT));
  };

  const nameOf = (id: string) => nodes.find((node) => node.id === id)?.data.node.name ?? id;

  const refuse = (message: string, ids: readonly string[]) => {
    setRefusal(message);
    markProblem(ids);
  };

  const save = async () => {
    const parsed = workflowDagSchema.safeParse(flowToDag(nodes, edges));
    if (!parsed.success) {
      // A node without a name is the one thing the schema can refuse of a drawing.
      const ids = nodes.filter((node) => !node.data.node.name.trim()).map((node) => node.id);
      refuse(t('workflow.problem.nameMissing'), ids);
      return;
    }
    const problem = dagProblem(parsed.data);
    if (problem) {
      refuse(
        t(`workflow.problem.${problem.code}`, { nodes: problem.nodes.map(nameOf).join(' → ') }),
        problem.nodes,
      );
      return;
    }
    setSaving(true);
    try {
      await saveWorkflowDag(workflowId, parsed.data);
      setDirty(false);
      setRefusal(undefined);
      markProblem([]);
      void dagQuery.refetch();
      feedback.success(t('workflow.editor.saved'), TOAST_MS.success / 1000);
    } catch (error) {
      const message = error instanceof HttpError ? error.message : String(error);
      refuse(message, nodesNamedIn(message, parsed.data.nodes));
    } finally {
      setSaving(false);
    }
  };

  if (dagQuery.isError) return <Result status="error" title={t('workflow.editor.loadFailed')} />;

  return (
    <div ref={rootRef}>
      <Card title={t('workflow.editor.title', { id: workflowId })} data-testid="wf-editor">
        <div className={styles.toolbar}>
          <Space wrap>
            <Button
              icon={<ArrowLeftOutlined />}
              onClick={() => {
                if (!dirty || window.confirm(t('workflow.editor.leaveConfirm')))
                  void navigate(JOB_ROUTES.workflowinfo);
              }}
              data-testid="wf-editor-back"
            >
              {t('workflow.editor.back')}
            </Button>
            <Button icon={<ApartmentOutlined />} onClick={autoLayout} data-testid="wf-auto-layout">
              {t('workflow.editor.autoLayout')}
            </Button>
          </Space>
          <Space wrap>
            {dirty && <span data-testid="wf-unsaved">{t('workflow.editor.unsaved')}</span>}
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={saving}
              onClick={() => void save()}
              data-testid="wf-save"
            >
              {t('workflow.editor.save')}
            </Button>
          </Space>
        </div>
        {refusal && (
          <Alert
            type="error"
            showIcon
            title={refusal}
            style={{ marginBottom: 12 }}
            data-testid="wf-refusal"
          />
        )}
        <JobNamesContext.Provider value={jobNames}>
          <div className={styles.editor}>
            <EditorPalette
              jobs={jobs}
              loading={jobsQuery.isLoading}
              search={search}
              onSearch={setSearch}
              onAdd={(item) => addNode(item)}
            />
            <div
              className={styles.canvas}
              onDragOver={(event) => {
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
              }}
              onDrop={onDrop}
              data-testid="wf-canvas"
            >
              {dagQuery.isLoading ? (
                <Spin />
              ) : (
                <ReactFlow<WfFlowNode, WfFlowEdge>
                  nodes={nodes}
                  edges={edges}
                  nodeTypes={NODE_TYPES}
                  onNodesChange={handleNodesChange}
                  onEdgesChange={handleEdgesChange}
                  onConnect={onConnect}
                  isValidConnection={isValidConnection}
                  deleteKeyCode={['Backspace', 'Delete']}
                  defaultEdgeOptions={{ markerEnd: { type: MarkerType.ArrowClosed } }}
                  fitView
                  fitViewOptions={FIT}
                >
                  <Background />
                  <Controls />
                  <MiniMap pannable zoomable />
                </ReactFlow>
              )}
            </div>
            <div className={styles.panel}>
              {selectedNode ? (
                <NodePanel
                  node={selectedNode.data.node}
                  jobs={jobs}
                  onChange={updateNode}
                  onDelete={() => deleteNode(selectedNode.id)}
                />
              ) : selectedEdge ? (
                <Space orientation="vertical" data-testid="wf-edge-panel">
                  <div>
                    {nameOf(selectedEdge.source)} → {nameOf(selectedEdge.target)}
                  </div>
                  {selectedEdgeSource?.data.node.type === 'decision' && (
                    <Radio.Group
                      value={selectedEdge.data?.branch}
                      onChange={(event) =>
                        setBranch(selectedEdge, event.target.value as 'true' | 'false')
                      }
                      optionType="button"
                      options={[
                        { value: 'true', label: branchLabel('true') },
                        { value: 'false', label: branchLabel('false') },
                      ]}
                      data-testid="wf-edge-branch"
                    />
                  )}
                  <Button
                    danger
                    onClick={() => {
                      setEdges((current) => current.filter((edge) => edge.id !== selectedEdge.id));
                      changed();
                    }}
                    data-testid="wf-edge-delete"
                  >
                    {t('workflow.editor.deleteEdge')}
                  </Button>
                </Space>
              ) : (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t('workflow.editor.pickHint')}
                />
              )}
            </div>
          </div>
        </JobNamesContext.Provider>
      </Card>
    </div>
  );
}
